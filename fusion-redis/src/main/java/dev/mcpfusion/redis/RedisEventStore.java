package dev.mcpfusion.redis;

import dev.mcpfusion.http.EventStore;
import dev.mcpfusion.http.StoredEvent;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link EventStore} on Redis Streams: one stream per event stream, each event an entry whose
 * id is {@code 0-<sequence>}, trimmed to {@link RedisSettings#eventsPerStream} entries and expired
 * {@link RedisSettings#eventTtl} after its newest event. A resume reads the entries from the
 * sequence after {@code Last-Event-ID} with {@code XRANGE}, so any instance replays what another
 * wrote. A set per session names its streams, so {@link #forget} drops them all.
 *
 * <p>Bounded per stream (entries) and in time (the time-to-live); the whole store is bounded by
 * the Redis server's own {@code maxmemory}, which its operator sets.
 */
final class RedisEventStore implements EventStore {
  /** XADD trimmed to the stream's limit, then both keys' time-to-live, in one round trip. */
  private static final String APPEND = """
      redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], ARGV[2], 'd', ARGV[3])
      redis.call('PEXPIRE', KEYS[1], ARGV[4])
      redis.call('SADD', KEYS[2], KEYS[1])
      redis.call('PEXPIRE', KEYS[2], ARGV[4])
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
        new String[] {streamKey(event.sessionId(), event.streamId()), streamsKey(event.sessionId())},
        limit, "0-" + event.sequence(), event.data(), ttlMs);
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

  private String streamsKey(String sessionId) {
    return redis.key("streams", sessionId);
  }
}
