package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.auth.HostileTokens;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The starter's answer to every bad token ({@link HostileTokens}, and none at all), whichever way
 * the application authenticates: {@code 401} with the metadata pointer ({@code invalid_token} when
 * a token came), no token fragment in the answer or in any log event, nothing logged at ERROR.
 */
public final class QuietRefusals {
  /** The loggers that log at DEBUG during the check: the framework's and Spring Security's. */
  static final String[] WATCHED = {"dev.mcpfusion", "org.springframework.security"};

  /** One request to the endpoint with {@code token} as its bearer token ({@code null}: none). */
  @FunctionalInterface
  public interface Send {
    HttpResponse<String> send(String token) throws Exception;
  }

  private QuietRefusals() {
  }

  /**
   * Sends no token, then each of {@code tokens}' bad ones, then its valid one (which must be
   * admitted: the refusals are for the defects), asserting each answer and then the log events.
   */
  public static void assertEachRefusedQuietly(HostileTokens tokens, String metadataUrl, Send send)
      throws Exception {
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("no token", null);
    bad.putAll(tokens.all());
    String valid = tokens.valid();
    List<String> events;
    List<String> errors;
    try (CapturedLogs logs = CapturedLogs.start(WATCHED)) {
      org.slf4j.LoggerFactory.getLogger(QuietRefusals.class).debug("capture is live");
      assertThat(logs.events()).as("the capture sees the application's events")
          .anyMatch(event -> event.contains("capture is live"));
      for (Map.Entry<String, String> entry : bad.entrySet()) {
        HttpResponse<String> response = send.send(entry.getValue());
        assertThat(response.statusCode()).as(entry.getKey()).isEqualTo(401);
        assertThat(response.headers().allValues("WWW-Authenticate")).as(entry.getKey()).containsExactly(
            "Bearer resource_metadata=\"" + metadataUrl + "\""
                + (entry.getValue() == null ? "" : ", error=\"invalid_token\""));
        String everything = response.body() + response.headers().map();
        if (entry.getValue() != null) {
          for (String fragment : HostileTokens.fragments(entry.getValue())) {
            assertThat(everything).as(entry.getKey()).doesNotContain(fragment);
          }
        }
        assertThat(response.body()).as(entry.getKey()).doesNotContain("Exception").doesNotContain("nimbus");
      }
      HttpResponse<String> admitted = send.send(valid);
      assertThat(admitted.statusCode()).as(admitted.body()).isEqualTo(200);
      events = logs.events();
      errors = logs.errors();
    }
    assertThat(errors).as("events at ERROR").isEmpty();
    for (Map.Entry<String, String> entry : bad.entrySet()) {
      if (entry.getValue() != null) {
        for (String fragment : HostileTokens.fragments(entry.getValue())) {
          assertThat(events).as(entry.getKey()).noneMatch(event -> event.contains(fragment));
        }
      }
    }
    for (String fragment : HostileTokens.fragments(valid)) {
      assertThat(events).as("the valid token").noneMatch(event -> event.contains(fragment));
    }
  }
}
