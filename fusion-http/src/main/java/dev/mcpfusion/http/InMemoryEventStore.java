package dev.mcpfusion.http;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The default {@link EventStore}: the events in this process's memory, within its
 * {@link EventStore.Limits}. Every kept event sits in its stream's queue and in one list of all
 * events in the order they arrived, so the oldest of a stream and the oldest of all are each
 * dropped in constant time; a stream whose last event is dropped is forgotten.
 */
final class InMemoryEventStore implements EventStore {
  private final Limits limits;
  /** Session id → stream id → the stream's kept events. */
  private final Map<String, Map<String, Stream>> sessions = new HashMap<>();
  /** The oldest and newest kept event of all streams. */
  private Node oldest;
  private Node newest;
  private int events;
  private long bytes;

  InMemoryEventStore(Limits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  @Override
  public synchronized void append(StoredEvent event) {
    Stream stream = sessions.computeIfAbsent(event.sessionId(), id -> new HashMap<>())
        .computeIfAbsent(event.streamId(), id -> new Stream(event.sessionId(), id));
    Node node = new Node(event, utf8Length(event.data()), stream);
    stream.nodes.addLast(node);
    stream.bytes += node.bytes;
    node.previous = newest;
    if (newest == null) {
      oldest = node;
    } else {
      newest.next = node;
    }
    newest = node;
    events++;
    bytes += node.bytes;
    while (stream.nodes.size() > limits.eventsPerStream() || stream.bytes > limits.bytesPerStream()) {
      dropOldest(stream);
    }
    // The oldest of all is always the oldest of its own stream: streams only grow at the back.
    while (events > limits.events() || bytes > limits.bytes()) {
      dropOldest(oldest.stream);
    }
  }

  @Override
  public synchronized Optional<List<StoredEvent>> eventsFrom(String sessionId, String streamId,
      long sequence) {
    Map<String, Stream> streams = sessions.get(sessionId);
    Stream stream = streams == null ? null : streams.get(streamId);
    if (stream == null) {
      return Optional.empty();
    }
    List<StoredEvent> from = new ArrayList<>();
    Iterator<Node> newestFirst = stream.nodes.descendingIterator();
    while (newestFirst.hasNext()) {
      StoredEvent event = newestFirst.next().event;
      if (event.sequence() < sequence) {
        break;
      }
      from.add(event);
    }
    Collections.reverse(from);
    return Optional.of(from);
  }

  @Override
  public synchronized void forget(String sessionId) {
    Map<String, Stream> streams = sessions.remove(sessionId);
    if (streams == null) {
      return;
    }
    for (Stream stream : streams.values()) {
      for (Node node : stream.nodes) {
        unlink(node);
      }
    }
  }

  /** Events kept in all. */
  synchronized int events() {
    return events;
  }

  /** Bytes kept in all. */
  synchronized long bytes() {
    return bytes;
  }

  /** Events kept of one stream. */
  synchronized int events(String sessionId, String streamId) {
    Map<String, Stream> streams = sessions.get(sessionId);
    Stream stream = streams == null ? null : streams.get(streamId);
    return stream == null ? 0 : stream.nodes.size();
  }

  /** Bytes kept of one stream. */
  synchronized long bytes(String sessionId, String streamId) {
    Map<String, Stream> streams = sessions.get(sessionId);
    Stream stream = streams == null ? null : streams.get(streamId);
    return stream == null ? 0 : stream.bytes;
  }

  private void dropOldest(Stream stream) {
    Node node = stream.nodes.pollFirst();
    stream.bytes -= node.bytes;
    unlink(node);
    if (stream.nodes.isEmpty()) {
      Map<String, Stream> streams = sessions.get(stream.sessionId);
      streams.remove(stream.streamId);
      if (streams.isEmpty()) {
        sessions.remove(stream.sessionId);
      }
    }
  }

  private void unlink(Node node) {
    if (node.previous == null) {
      oldest = node.next;
    } else {
      node.previous.next = node.next;
    }
    if (node.next == null) {
      newest = node.previous;
    } else {
      node.next.previous = node.previous;
    }
    node.previous = null;
    node.next = null;
    events--;
    bytes -= node.bytes;
  }

  /** The UTF-8 length of {@code text}: what the event's data costs on the wire. */
  static long utf8Length(String text) {
    long length = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        length++;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        length += 4;
        i++;
      } else {
        length += 3;
      }
    }
    return length;
  }

  /** One stream's kept events, oldest first. */
  private static final class Stream {
    final String sessionId;
    final String streamId;
    final ArrayDeque<Node> nodes = new ArrayDeque<>();
    long bytes;

    Stream(String sessionId, String streamId) {
      this.sessionId = sessionId;
      this.streamId = streamId;
    }
  }

  /** One kept event, linked into the list of all events in arrival order. */
  private static final class Node {
    final StoredEvent event;
    final long bytes;
    final Stream stream;
    Node previous;
    Node next;

    Node(StoredEvent event, long bytes, Stream stream) {
      this.event = event;
      this.bytes = bytes;
      this.stream = stream;
    }
  }
}
