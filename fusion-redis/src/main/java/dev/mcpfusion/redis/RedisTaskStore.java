package dev.mcpfusion.redis;

import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.core.task.TaskRelay;
import dev.mcpfusion.core.task.TaskStatus;
import dev.mcpfusion.core.task.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The {@link TaskStore} on Redis: each task a hash with a version field, and one sorted set of
 * every task id scored by when it expires ({@code +inf} while it runs), which bounds the number of
 * tasks. A finished task's hash expires at its {@code expiresAtMs}, so Redis forgets it even when
 * no instance purges. Creation and every update are Lua scripts: creation checks the bound and
 * stores in one step; an update is a compare-and-set on the version, retried when another
 * instance changed the task meanwhile.
 *
 * <p>Each task names the instance running it (its {@code runner} field). That instance renews a
 * lease key while it lives ({@link FusionRedis#taskStore()}); an instance that reads a task still
 * running whose runner's lease has lapsed marks it failed, with an error saying so, kept for
 * {@link #LOST_TASK_TTL}. Another instance's {@code tasks/update} and {@code tasks/cancel} reach the
 * runner's handler through {@link #relay()}. A runner that was only cut off from Redis and finishes later changes
 * nothing: a finished task stays as it is.
 */
final class RedisTaskStore implements TaskStore {
  /**
   * KEYS: the task, the index. ARGV: max tasks, now, task id, score, expiresAt, key prefix of
   * tasks, then field/value pairs.
   */
  private static final String CREATE = """
      if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[1]) then
        local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
        for _, id in ipairs(expired) do redis.call('DEL', ARGV[6] .. id) end
        redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
        if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[1]) then return 0 end
      end
      if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
      redis.call('HSET', KEYS[1], 'v', '1', unpack(ARGV, 7))
      redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
      if tonumber(ARGV[5]) > 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[5]) end
      return 1
      """;

  /**
   * KEYS: the task, the index. ARGV: expected version, task id, score, expiresAt, then
   * field/value pairs. 0 when the version moved (or the task is gone).
   */
  private static final String REPLACE = """
      if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
      redis.call('DEL', KEYS[1])
      redis.call('HSET', KEYS[1], 'v', tostring(tonumber(ARGV[1]) + 1), unpack(ARGV, 5))
      redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
      if tonumber(ARGV[4]) > 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[4]) end
      return 1
      """;

  /** KEYS: the index. ARGV: now, key prefix of tasks. */
  private static final String PURGE = """
      local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
      for _, id in ipairs(expired) do redis.call('DEL', ARGV[2] .. id) end
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
      return #expired
      """;

  /** How often an update retries a compare-and-set another instance won. */
  private static final int MAX_ATTEMPTS = 100;

  /** How long a task failed for its lost instance is kept: a finished task's default time. */
  static final java.time.Duration LOST_TASK_TTL = java.time.Duration.ofHours(1);

  private final FusionRedis redis;
  private final String index;
  private final String taskPrefix;
  private final TaskRelay relay;

  RedisTaskStore(FusionRedis redis, RedisAnswers messages) {
    this.redis = redis;
    this.index = redis.key("tasks");
    this.taskPrefix = redis.key("task", "");
    this.relay = new TaskRelay() {
      @Override
      public AutoCloseable listen(Receiver receiver) {
        return messages.listen(receiver::receive);
      }

      @Override
      public boolean send(String taskId, String message) {
        String runner = redis.run("read a task's runner",
            commands -> commands.hget(taskPrefix + taskId, "runner"));
        // A task this instance runs is handled here: nothing to send when its handler is gone.
        return runner != null && !runner.equals(redis.instance())
            && messages.send(runner.replace("-", ""), taskId, message);
      }
    };
  }

  @Override
  public boolean create(TaskRecord task, int maxTasks, long nowMs) {
    List<String> args = new ArrayList<>(List.of(String.valueOf(maxTasks), String.valueOf(nowMs),
        task.taskId(), score(task), String.valueOf(task.expiresAtMs()), taskPrefix));
    fields(task, args);
    put(args, "runner", redis.instance());
    return redis.script("create a task", CREATE, new String[] {taskPrefix + task.taskId(), index},
        args.toArray(String[]::new)) == 1;
  }

  @Override
  public TaskRecord get(String taskId) {
    Map<String, String> hash = redis.run("read a task", commands -> commands.hgetall(taskPrefix + taskId));
    if (hash.isEmpty()) {
      return null;
    }
    TaskRecord task = record(taskId, hash);
    if (task.status().terminal() || !runnerLost(hash.get("runner"))) {
      return task;
    }
    long now = System.currentTimeMillis();
    String why = "the instance running this task stopped (its lease of "
        + redis.settings().taskLease().toMillis() + " ms lapsed), so the task cannot finish; "
        + "start the call again.";
    String message = Character.toUpperCase(why.charAt(0)) + why.substring(1);
    Map<String, Object> code = new java.util.LinkedHashMap<>();
    code.put("code", dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR);
    code.put("message", "Internal error: " + why);
    String error = dev.mcpfusion.json.Json.write(code);
    TaskRecord failed = update(taskId, t -> t.status().terminal() ? t
        : t.finished(TaskStatus.FAILED, message, null, error, now, now + LOST_TASK_TTL.toMillis()));
    return failed == null ? task : failed;
  }

  /** Whether {@code runner} (an instance) no longer holds its lease; never for this instance. */
  private boolean runnerLost(String runner) {
    if (runner == null || runner.equals(redis.instance())) {
      return false;
    }
    String key = redis.leaseKey(runner);
    return redis.run("check a task's lease", commands -> commands.exists(key)) == 0;
  }

  @Override
  public TaskRecord update(String taskId, UnaryOperator<TaskRecord> change) {
    String key = taskPrefix + taskId;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Map<String, String> hash = redis.run("read a task", commands -> commands.hgetall(key));
      if (hash.isEmpty()) {
        return null;
      }
      TaskRecord current = record(taskId, hash);
      TaskRecord changed = change.apply(current);
      if (changed.equals(current)) {
        return current;
      }
      List<String> args = new ArrayList<>(List.of(hash.get("v"), taskId, score(changed),
          String.valueOf(changed.expiresAtMs())));
      fields(changed, args);
      put(args, "runner", hash.get("runner"));
      if (redis.script("update a task", REPLACE, new String[] {key, index},
          args.toArray(String[]::new)) == 1) {
        return changed;
      }
    }
    throw new IllegalStateException("Task " + taskId + " changed on other instances " + MAX_ATTEMPTS
        + " times while this one tried to update it");
  }

  /**
   * Sends a {@code tasks/update} or {@code tasks/cancel} to the instance named in the task's
   * {@code runner} field, over that instance's channel ({@link RedisAnswers}).
   */
  @Override
  public TaskRelay relay() {
    return relay;
  }

  @Override
  public int purgeExpired(long nowMs) {
    return (int) redis.script("purge expired tasks", PURGE, new String[] {index},
        String.valueOf(nowMs), taskPrefix);
  }

  private static String score(TaskRecord task) {
    return task.expiresAtMs() > 0 ? String.valueOf(task.expiresAtMs()) : "+inf";
  }

  private static void fields(TaskRecord task, List<String> out) {
    put(out, "owner", task.owner());
    put(out, "tool", task.tool());
    put(out, "status", task.status().name());
    put(out, "statusMessage", task.statusMessage());
    put(out, "createdAtMs", String.valueOf(task.createdAtMs()));
    put(out, "lastUpdatedAtMs", String.valueOf(task.lastUpdatedAtMs()));
    put(out, "expiresAtMs", String.valueOf(task.expiresAtMs()));
    put(out, "resultJson", task.resultJson());
    put(out, "errorJson", task.errorJson());
    put(out, "inputRequestsJson", task.inputRequestsJson());
  }

  private static void put(List<String> out, String field, String value) {
    if (value != null) {
      out.add(field);
      out.add(value);
    }
  }

  private static TaskRecord record(String taskId, Map<String, String> hash) {
    return new TaskRecord(taskId, hash.get("owner"), hash.get("tool"),
        TaskStatus.valueOf(hash.get("status")), hash.get("statusMessage"),
        Long.parseLong(hash.get("createdAtMs")), Long.parseLong(hash.get("lastUpdatedAtMs")),
        Long.parseLong(hash.get("expiresAtMs")), hash.get("resultJson"), hash.get("errorJson"),
        hash.get("inputRequestsJson"));
  }
}
