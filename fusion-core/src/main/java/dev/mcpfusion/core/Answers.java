package dev.mcpfusion.core;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The client's answers to the questions of one {@link RequestContext#askAll} call, each read with
 * the {@link Question} that asked it.
 */
public final class Answers {
  private final Map<Question<?>, Object> values;

  Answers(Map<Question<?>, Object> values) {
    this.values = new IdentityHashMap<>(values);
  }

  /**
   * The answer to {@code question}.
   *
   * @throws IllegalArgumentException when {@code question} was not one of the questions asked
   */
  @SuppressWarnings("unchecked")
  public <T> T get(Question<T> question) {
    Objects.requireNonNull(question, "question");
    if (!values.containsKey(question)) {
      throw new IllegalArgumentException("The " + question.method() + " question"
          + (question.key() == null ? "" : " '" + question.key() + "'")
          + " was not asked in this askAll call; pass it to askAll first.");
    }
    return (T) values.get(question);
  }
}
