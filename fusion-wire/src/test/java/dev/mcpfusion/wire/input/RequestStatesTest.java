package dev.mcpfusion.wire.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestStatesTest {
  private static final byte[] KEY = "k".repeat(32).getBytes(StandardCharsets.US_ASCII);
  private static final Instant NOW = Instant.parse("2026-07-28T10:00:00Z");

  private static RequestStates states(byte[] key, Instant now) {
    return RequestStates.of(key, Duration.ofMinutes(10), 4096, Clock.fixed(now, ZoneOffset.UTC));
  }

  @Test
  void aSealedStateOpensForTheSameRequestOnAnyInstanceWithTheKey() {
    String binding = RequestStates.binding("tools/call", "trip_book", Map.of("b", 1, "a", List.of(2)));
    String state = states(KEY, NOW).seal(binding, Map.of("x", "y"));
    assertThat(states(KEY.clone(), NOW.plusSeconds(60)).open(state, binding)).isEqualTo(Map.of("x", "y"));
  }

  @Test
  void theBindingIgnoresKeyOrderButNotValues() {
    assertThat(RequestStates.binding("tools/call", "t", Map.of("a", 1, "b", 2)))
        .isEqualTo(RequestStates.binding("tools/call", "t", new java.util.TreeMap<>(Map.of("b", 2, "a", 1))));
    assertThat(RequestStates.binding("tools/call", "t", Map.of("a", 1)))
        .isNotEqualTo(RequestStates.binding("tools/call", "t", Map.of("a", 2)))
        .isNotEqualTo(RequestStates.binding("tools/call", "u", Map.of("a", 1)));
  }

  @Test
  void everyEditedCharacterIsRefused() {
    String binding = RequestStates.binding("tools/call", "t", Map.of());
    String state = states(KEY, NOW).seal(binding, Map.of("answer", "yes"));
    for (int i = 0; i < state.length(); i++) {
      char c = state.charAt(i) == 'A' ? 'B' : 'A';
      String edited = state.substring(0, i) + c + state.substring(i + 1);
      assertThatThrownBy(() -> states(KEY, NOW).open(edited, binding))
          .isInstanceOfSatisfying(RequestStates.Rejected.class,
              e -> assertThat(e.reason()).isEqualTo(RequestStates.Reason.TAMPERED));
    }
  }

  @Test
  void aStateSignedWithAnotherKeyIsRefused() {
    String binding = RequestStates.binding("tools/call", "t", Map.of());
    String state = states("o".repeat(32).getBytes(StandardCharsets.US_ASCII), NOW).seal(binding, Map.of());
    assertThatThrownBy(() -> states(KEY, NOW).open(state, binding))
        .hasMessageContaining("was changed or was not issued by this server");
  }

  @Test
  void aStateForAnotherRequestIsRefused() {
    String state = states(KEY, NOW).seal(RequestStates.binding("tools/call", "t", Map.of("id", 1)), Map.of());
    assertThatThrownBy(() -> states(KEY, NOW).open(state, RequestStates.binding("tools/call", "t", Map.of("id", 2))))
        .isInstanceOfSatisfying(RequestStates.Rejected.class,
            e -> assertThat(e.reason()).isEqualTo(RequestStates.Reason.FOREIGN));
  }

  @Test
  void anExpiredStateIsRefusedWithItsExpiry() {
    String binding = RequestStates.binding("tools/call", "t", Map.of());
    String state = states(KEY, NOW).seal(binding, Map.of());
    assertThat(states(KEY, NOW.plus(Duration.ofMinutes(10)).minusSeconds(1)).open(state, binding)).isEmpty();
    assertThatThrownBy(() -> states(KEY, NOW.plus(Duration.ofMinutes(10))).open(state, binding))
        .isInstanceOfSatisfying(RequestStates.Rejected.class,
            e -> assertThat(e.reason()).isEqualTo(RequestStates.Reason.EXPIRED))
        .hasMessage("requestState expired at 2026-07-28T10:10:00Z (a state is valid for 10 minutes after it is issued).");
  }

  @Test
  void statesAreBoundedWhenIssuedAndWhenOpened() {
    String binding = RequestStates.binding("tools/call", "t", Map.of());
    assertThatThrownBy(() -> states(KEY, NOW).seal(binding, Map.of("long", "x".repeat(5000))))
        .isInstanceOfSatisfying(RequestStates.TooLarge.class, e -> assertThat(e.limit()).isEqualTo(4096));
    assertThatThrownBy(() -> states(KEY, NOW).open("x".repeat(4097), binding))
        .isInstanceOfSatisfying(RequestStates.Rejected.class,
            e -> assertThat(e.reason()).isEqualTo(RequestStates.Reason.OVERSIZED));
  }

  @Test
  void aShortKeyIsRefusedWithTheFix() {
    assertThatThrownBy(() -> RequestStates.of(new byte[16], Duration.ofMinutes(1), 4096, Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 16 bytes; use at least 32 random bytes");
  }

  @Test
  void anAnswerIsUsedOnlyForTheQuestionItAnswered() {
    InputRound first = InputRound.of(null, null);
    assertThat(first.answer("q", "elicitation/create", Map.of("message", "Name?"))).isNull();
    Map<String, Object> payload = first.payload();
    InputRound same = InputRound.of(payload, Map.of("q", Map.of("action", "accept")));
    assertThat(same.answer("q", "elicitation/create", Map.of("message", "Name?"))).isEqualTo(Map.of("action", "accept"));
    assertThat(same.waiting()).isFalse();
    InputRound changed = InputRound.of(payload, Map.of("q", Map.of("action", "accept")));
    assertThat(changed.answer("q", "elicitation/create", Map.of("message", "Age?"))).isNull();
    assertThat(changed.inputRequests()).containsOnlyKeys("q");
  }

  @Test
  void earlierAnswersTravelInTheState() {
    InputRound one = InputRound.of(null, Map.of("a", Map.of("v", 1)));
    assertThat(one.answer("a", "roots/list", Map.of())).isEqualTo(Map.of("v", 1));
    assertThat(one.answer("b", "roots/list", Map.of("x", 1))).isNull();
    InputRound two = InputRound.of(one.payload(), Map.of("b", Map.of("v", 2)));
    assertThat(two.answer("a", "roots/list", Map.of())).isEqualTo(Map.of("v", 1));
    assertThat(two.answer("b", "roots/list", Map.of("x", 1))).isEqualTo(Map.of("v", 2));
    assertThat(two.waiting()).isFalse();
  }
}
