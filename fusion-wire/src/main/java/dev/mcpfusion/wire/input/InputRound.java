package dev.mcpfusion.wire.input;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run of a 2026-07-28 handler that may ask the client: the answers it already has (those
 * carried in the request state, and the client's {@code inputResponses} to the questions that state
 * was waiting for) and the questions it asked this run that have no answer yet.
 *
 * <p>The handler runs again from the start on every round: each question is found by its key, and
 * an answer is used only for the very question it answered (the same method and parameters, by
 * fingerprint), so a handler that asks something else on a later round is asked again rather than
 * handed a stale answer. Without a request state (the client answered the first round's questions
 * without echoing one), the client's answers are taken for whichever question has their key.
 *
 * <p>One per call; its methods are called from the handler's thread and read by the edge after
 * the handler returned.
 */
public final class InputRound {
  private static final String ANSWERS = "a";
  private static final String AWAITED = "q";
  private static final String FINGERPRINT = "f";
  private static final String RESPONSE = "r";
  private static final String CARRIED = "c";

  private final boolean stateless;
  private final Map<String, Object[]> known = new LinkedHashMap<>();
  private final Map<String, String> awaited = new LinkedHashMap<>();
  private final Map<String, Map<String, Object>> responses;
  private final Map<String, Object[]> used = new LinkedHashMap<>();
  private final Map<String, Map<String, Object>> asked = new LinkedHashMap<>();
  private final Map<String, String> askedPrints = new LinkedHashMap<>();
  private final Map<String, Integer> counters = new LinkedHashMap<>();
  private final Map<String, String> carried = new LinkedHashMap<>();

  private InputRound(Map<String, Object> payload, Map<String, Map<String, Object>> responses) {
    this.stateless = payload == null;
    this.responses = responses == null ? Map.of() : responses;
    if (payload != null) {
      if (payload.get(ANSWERS) instanceof Map<?, ?> answers) {
        answers.forEach((k, v) -> {
          if (v instanceof Map<?, ?> a && a.get(FINGERPRINT) instanceof String f) {
            known.put(String.valueOf(k), new Object[] {f, a.get(RESPONSE)});
          }
        });
      }
      if (payload.get(CARRIED) instanceof Map<?, ?> kept) {
        kept.forEach((k, v) -> carried.put(String.valueOf(k), String.valueOf(v)));
      }
      if (payload.get(AWAITED) instanceof Map<?, ?> waiting) {
        waiting.forEach((k, v) -> awaited.put(String.valueOf(k), String.valueOf(v)));
      }
    }
  }

  /**
   * The round of a request that sent {@code payload} (an opened request state, or {@code null} when
   * it sent none) and the client's {@code responses} (each an object; {@code null} for none).
   */
  public static InputRound of(Map<String, Object> payload, Map<String, Map<String, Object>> responses) {
    return new InputRound(payload, responses);
  }

  /**
   * The key of the next question with no key of its own: the method's first segment and the
   * question's place among this run's questions of that method ({@code elicitation_1},
   * {@code sampling_2}, {@code roots_1}), the same on every run of a handler that asks the same
   * things in the same order.
   */
  public synchronized String nextKey(String method) {
    int slash = method.indexOf('/');
    String stem = slash < 0 ? method : method.substring(0, slash);
    int n = counters.merge(stem, 1, Integer::sum);
    return stem + "_" + n;
  }

  /**
   * The client's answer to the question {@code key} ({@code method} with {@code params}), or
   * {@code null} when there is none yet: the question is then recorded as asked.
   */
  public synchronized Map<String, Object> answer(String key, String method, Map<String, Object> params) {
    String print = fingerprint(method, params);
    Object[] old = known.get(key);
    if (old != null && print.equals(old[0]) && old[1] instanceof Map<?, ?>) {
      used.put(key, old);
      return plain((Map<?, ?>) old[1]);
    }
    Map<String, Object> response = responses.get(key);
    if (response != null && (stateless ? !known.containsKey(key) : print.equals(awaited.get(key)))) {
      used.put(key, new Object[] {print, response});
      return response;
    }
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("method", method);
    request.put("params", params);
    asked.put(key, request);
    askedPrints.put(key, print);
    return null;
  }

  /** Carries {@code value} under {@code key} into the next round's state. */
  public synchronized void carry(String key, String value) {
    carried.put(key, value);
  }

  /** The value carried under {@code key} (by an earlier round or this one), or {@code null}. */
  public synchronized String carried(String key) {
    return carried.get(key);
  }

  /** Whether the handler asked a question that has no answer yet. */
  public synchronized boolean waiting() {
    return !asked.isEmpty();
  }

  /** The questions without an answer, by key: each {@code {method, params}} (the {@code inputRequests}). */
  public synchronized Map<String, Object> inputRequests() {
    return new LinkedHashMap<>(asked);
  }

  /** What the next round's state carries: the answers used this run and the questions awaited. */
  public synchronized Map<String, Object> payload() {
    Map<String, Object> answers = new LinkedHashMap<>();
    used.forEach((k, v) -> {
      Map<String, Object> a = new LinkedHashMap<>();
      a.put(FINGERPRINT, v[0]);
      a.put(RESPONSE, v[1]);
      answers.put(k, a);
    });
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put(ANSWERS, answers);
    payload.put(AWAITED, new LinkedHashMap<>(askedPrints));
    if (!carried.isEmpty()) {
      payload.put(CARRIED, new LinkedHashMap<>(carried));
    }
    return payload;
  }

  /** Replaces the parameters of the asked question {@code key} with what the egress chain let out. */
  public synchronized void sent(String key, Map<String, Object> params) {
    Map<String, Object> request = asked.get(key);
    if (request != null) {
      request.put("params", params);
    }
  }

  private static String fingerprint(String method, Map<String, Object> params) {
    String text = RequestStates.binding(method, "", params);
    return text.substring(0, 22);
  }

  private static Map<String, Object> plain(Map<?, ?> map) {
    Map<String, Object> out = new LinkedHashMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }
}
