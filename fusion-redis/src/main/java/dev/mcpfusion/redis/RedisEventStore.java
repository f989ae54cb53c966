package dev.mcpfusion.redis;

import dev.mcpfusion.http.EventStore;
import dev.mcpfusion.http.StoredEvent;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@link EventStore} on Redis Streams: one stream per event stream, each event an entry whose
 * id is {@code 0-<sequence>}, trimmed to {@link RedisSettings#eventsPerStream} entries and expired
 * {@link RedisSettings#eventTtl} after its newest event. A resume reads the entries from the
 * sequence after {@code Last-Event-ID} with {@code XRANGE}, so any instance replays what another
 * wrote. A set per session names its streams, so {@link #forget} drops them all.
 *
 * <p>A POST stream has a hash beside it naming the instance that runs its call and the request's
 * id. That instance keeps its heartbeat key alive in Redis ({@link FusionRedis#aliveKey},
 * {@link RedisSettings#liveness}); once the key has lapsed, {@link #endOrphaned} appends the
 * stream's ending and marks the hash ended, in one script, and every later append to the stream is
 * dropped.
 *
 * <p>Bounded per stream (entries) and in time (the time-to-live); the whole store is bounded by
 * the Redis server's own {@code maxmemory}, which its operator sets.
 */
final class RedisEventStore implements EventStore {
  /**
   * XADD trimmed to the stream's limit, then the keys' time-to-live, in one round trip; nothing
   * once the stream was ended for its stopped instance.
   */
  private static final String APPEND = """
      if redis.call('HEXISTS', KEYS[3], 'ended') == 1 then return 0 end
      redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], ARGV[2], 'd', ARGV[3])
      redis.call('PEXPIRE', KEYS[1], ARGV[4])
      redis.call('PEXPIRE', KEYS[3], ARGV[4])
      redis.call('SADD', KEYS[2], KEYS[1])
      redis.call('PEXPIRE', KEYS[2], ARGV[4])
      return 1
      """;

  /** Who runs a POST stream's call, and for which request; dropped with the session's streams. */
  private static final String OPENED = """
      redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'request', ARGV[2])
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
      redis.call('SADD', KEYS[2], KEYS[1])
      redis.call('PEXPIRE', KEYS[2], ARGV[3])
      return 1
      """;

  /**
   * The ending of a stream whose owner's heartbeat lapsed: appended only if it is still gone,
   * the stream not ended yet, and its newest entry the one the caller read.
   */
  private static final String END = """
      if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
      if redis.call('HEXISTS', KEYS[2], 'ended') == 1 then return 0 end
      local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
      if #newest == 0 or newest[1][1] ~= ARGV[1] then return 0 end
      redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], ARGV[3], 'd', ARGV[4])
      redis.call('HSET', KEYS[2], 'ended', ARGV[3])
      redis.call('PEXPIRE', KEYS[1], ARGV[5])
      redis.call('PEXPIRE', KEYS[2], ARGV[5])
      return 1
      """;

  private final FusionRedis redis;
  private final String limit;
  private final String ttlMs;

  RedisEventStore(FusionRedis redis) {
    this.redis = redis;
    this.limit = String.valueOf(redis.settings().eventsPerStream());
    this.ttlMs = String.valueOf(redis.settings().eventTtl().toMillis());
  }

  @Override
  public void append(StoredEvent event) {
    redis.script("append an event", APPEND,
        new String[] {streamKey(event.sessionId(), event.streamId()), streamsKey(event.sessionId()),
            callKey(event.sessionId(), event.streamId())},
        limit, "0-" + event.sequence(), event.data(), ttlMs);
  }

  @Override
  public void opened(String sessionId, String streamId, String requestId) {
    redis.script("record a streamed call", OPENED,
        new String[] {callKey(sessionId, streamId), streamsKey(sessionId)},
        redis.instance(), requestId, ttlMs);
  }

  @Override
  public Optional<StoredEvent> endOrphaned(String sessionId, String streamId, long lastSequence,
      Function<String, String> ending) {
    String call = callKey(sessionId, streamId);
    java.util.Map<String, String> known = redis.run("read who runs a streamed call",
        commands -> commands.hgetall(call));
    String owner = known.get("owner");
    String request = known.get("request");
    if (owner == null || request == null || known.containsKey("ended")) {
      return Optional.empty();
    }
    StoredEvent end = new StoredEvent(sessionId, streamId, lastSequence + 1, ending.apply(request));
    long ended = redis.script("end a stream whose instance stopped", END,
        new String[] {streamKey(sessionId, streamId), call, redis.aliveKey(owner)},
        "0-" + lastSequence, limit, "0-" + end.sequence(), end.data(), ttlMs);
    return ended == 1 ? Optional.of(end) : Optional.empty();
  }

  @Override
  public Optional<List<StoredEvent>> eventsFrom(String sessionId, String streamId, long sequence) {
    String key = streamKey(sessionId, streamId);
    List<StreamMessage<String, String>> entries = redis.run("read an event stream",
        commands -> commands.xrange(key,
            Range.create("0-" + Math.max(1, sequence), "+")));
    if (entries.isEmpty()) {
      long exists = redis.run("read an event stream", commands -> commands.exists(key));
      return exists == 0 ? Optional.empty() : Optional.of(List.of());
    }
    List<StoredEvent> events = new ArrayList<>(entries.size());
    for (StreamMessage<String, String> entry : entries) {
      String id = entry.getId();
      long entrySequence = Long.parseLong(id.substring(id.indexOf('-') + 1));
      events.add(new StoredEvent(sessionId, streamId, entrySequence, entry.getBody().get("d")));
    }
    return Optional.of(events);
  }

  @Override
  public void forget(String sessionId) {
    String streams = streamsKey(sessionId);
    Set<String> keys = redis.run("list a session's event streams", commands -> commands.smembers(streams));
    List<String> all = new ArrayList<>(keys);
    all.add(streams);
    redis.run("drop a session's event streams", commands -> commands.del(all.toArray(String[]::new)));
  }

  private String streamKey(String sessionId, String streamId) {
    return redis.key("events", sessionId, streamId);
  }

  private String callKey(String sessionId, String streamId) {
    return redis.key("call", sessionId, streamId);
  }

  private String streamsKey(String sessionId) {
    return redis.key("streams", sessionId);
  }
}
