package dev.mcpfusion.core.guard;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * One action's {@code @SerializeOn}: calls with the same key run one at a time, in arrival order,
 * and at most {@code queue} wait for one key; calls with different keys never wait for each other.
 * A key is kept only while a call holds it or waits for it, so the keys an action has seen never
 * accumulate. Thread-safe; a key may be given back on another thread than the one that took it
 * (an async handler's stage completes elsewhere).
 */
public final class KeyedGate {
  private final String argument;
  private final int queue;
  private final Map<Object, Lane> lanes = new ConcurrentHashMap<>();

  /** One key in use: its turn, and the calls holding or waiting for it (changed under the map's lock). */
  private static final class Lane {
    final Semaphore turn = new Semaphore(1, true);
    int users;
  }

  /**
   * A gate keyed by the argument {@code argument}, with {@code queue} waiting places per key.
   *
   * @throws IllegalArgumentException when {@code queue} is negative
   */
  public KeyedGate(String argument, int queue) {
    if (queue < 0) {
      throw new IllegalArgumentException("queue must be at least 0");
    }
    this.argument = argument;
    this.queue = queue;
  }

  /** The argument whose value keys the calls. */
  public String argument() {
    return argument;
  }

  /** The calls that may wait for one key. */
  public int queue() {
    return queue;
  }

  /**
   * The key of a call whose argument is {@code value}: numbers that name the same value (1, 1L,
   * 1.0) are one key; {@code null} when the call does not send the argument (it is not serialised).
   */
  public static Object key(Object value) {
    if (value instanceof Number n) {
      double d = n.doubleValue();
      return d == Math.rint(d) && !Double.isInfinite(d) ? (Object) n.longValue() : (Object) d;
    }
    return value;
  }

  /**
   * Takes {@code key}'s turn: at once when no call holds it, else after the calls before this one,
   * if a waiting place is free. Every {@code true} must be paired with one {@link #leave}.
   *
   * @return {@code false} when {@code queue} calls already wait for the key (the call is turned away)
   * @throws InterruptedException when interrupted while waiting (a deadline passed or the call was
   *     cancelled); the key is not held then
   */
  public boolean enter(Object key) throws InterruptedException {
    Lane[] taken = new Lane[1];
    lanes.compute(key, (k, lane) -> {
      Lane l = lane == null ? new Lane() : lane;
      if (l.users <= queue) {
        l.users++;
        taken[0] = l;
      }
      return l;
    });
    Lane lane = taken[0];
    if (lane == null) {
      return false;
    }
    try {
      lane.turn.acquire();
      return true;
    } catch (InterruptedException e) {
      forget(key);
      throw e;
    }
  }

  /** Gives {@code key}'s turn to the next call waiting for it, or forgets the key when none does. */
  public void leave(Object key) {
    Lane lane = lanes.get(key);
    if (lane == null) {
      throw new IllegalStateException("leave without enter");
    }
    lane.turn.release();
    forget(key);
  }

  private void forget(Object key) {
    lanes.computeIfPresent(key, (k, l) -> --l.users == 0 ? null : l);
  }

  /** Keys some call holds or waits for now. */
  public int keys() {
    return lanes.size();
  }
}
