package dev.mcpfusion.redis;

import dev.mcpfusion.http.SessionStore;
import dev.mcpfusion.http.StoredSession;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link SessionStore} on Redis: each session a hash that expires
 * {@link RedisSettings#sessionTtl} after it was last saved or touched.
 */
final class RedisSessionStore implements SessionStore {
  /** HSET the fields, then the time-to-live, in one round trip. */
  private static final String SAVE = """
      redis.call('DEL', KEYS[1])
      redis.call('HSET', KEYS[1], unpack(ARGV, 2))
      redis.call('PEXPIRE', KEYS[1], ARGV[1])
      return 1
      """;

  /** The session's time-to-live, and its subscriptions' ({@link RedisSubscriptions}) with it. */
  private static final String TOUCH = """
      redis.call('PEXPIRE', KEYS[1], ARGV[1])
      redis.call('PEXPIRE', KEYS[2], ARGV[1])
      return 1
      """;

  private final FusionRedis redis;
  private final String ttlMs;
  private final RedisAnswers answers;

  RedisSessionStore(FusionRedis redis, RedisAnswers answers) {
    this.redis = redis;
    this.answers = answers;
    this.ttlMs = String.valueOf(redis.settings().sessionTtl().toMillis());
  }

  @Override
  public Optional<dev.mcpfusion.http.AnswerRelay> answerRelay() {
    return Optional.of(answers);
  }

  @Override
  public void save(StoredSession session) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("owner", session.owner());
    fields.put("protocolVersion", session.protocolVersion());
    fields.put("clientCapabilities", session.clientCapabilities());
    if (session.clientInfo() != null) {
      fields.put("clientInfo", session.clientInfo());
    }
    fields.put("logLevel", session.logLevel());
    String[] args = new String[1 + 2 * fields.size()];
    args[0] = ttlMs;
    int i = 1;
    for (Map.Entry<String, String> field : fields.entrySet()) {
      args[i++] = field.getKey();
      args[i++] = field.getValue();
    }
    redis.script("save a session", SAVE, new String[] {key(session.sessionId())}, args);
  }

  @Override
  public Optional<StoredSession> load(String sessionId) {
    Map<String, String> hash = redis.run("load a session", commands -> commands.hgetall(key(sessionId)));
    if (hash.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new StoredSession(sessionId, hash.get("owner"), hash.get("protocolVersion"),
        hash.get("clientCapabilities"), hash.get("clientInfo"), hash.get("logLevel")));
  }

  @Override
  public void touch(String sessionId) {
    redis.script("touch a session", TOUCH,
        new String[] {key(sessionId), RedisSubscriptions.key(redis, sessionId)}, ttlMs);
  }

  @Override
  public void remove(String sessionId) {
    redis.run("forget a session",
        commands -> commands.del(key(sessionId), RedisSubscriptions.key(redis, sessionId)));
  }

  private String key(String sessionId) {
    return redis.key("session", sessionId);
  }
}
