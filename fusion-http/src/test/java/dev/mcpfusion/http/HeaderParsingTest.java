package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two header readers every request passes through: the {@code Accept} match and the {@code Host}
 * header's port (read without a regular expression). The wire tests
 * (406 for an unacceptable {@code Accept}, 403 for a foreign {@code Host}) cover them end to end;
 * these pin the edge cases a rewrite of either would break.
 */
class HeaderParsingTest {

  @ParameterizedTest(name = "Accept \"{0}\" allows {1}: {2}")
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "NULL | application/json | false",
      "'' | application/json | false",
      "application/json | application/json | true",
      "Application/JSON; q=0.9 | application/json | true",
      "  application/json  ;charset=utf-8 | application/json | true",
      "text/html, application/json | application/json | true",
      "application/json,text/event-stream | text/event-stream | true",
      "text/event-stream ,application/json | text/event-stream | true",
      "text/html,application/* | application/json | true",
      "text/* | text/event-stream | true",
      "text/* | application/json | false",
      "*/* | application/json | true",
      " */*;q=0.1 | text/event-stream | true",
      "application/jsonx | application/json | false",
      "application/json-seq | application/json | false",
      "application/ | application/json | false",
      "application/x* | application/json | false",
      "applicatio*/* | application/json | false",
      "*/json | application/json | false",
      "',,, ;' | application/json | false",
      "text/html;application/json | application/json | false",
  })
  void acceptMatchesTheTypeItsFamilyOrAnything(String accept, String type, boolean expected) {
    assertThat(HttpFraming.accepts(accept, type)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "Host port part \"{0}\": {1}")
  @CsvSource(delimiter = '|', value = {
      ":1 | 1",
      ":8080 | 8080",
      ":65535 | 65535",
      ":99999 | 99999",
      ":00080 | 80",
      ": | -1",
      ":123456 | -1",
      ":8o80 | -1",
      ":+80 | -1",
      ":-1 | -1",
      "8080 | -1",
      "':８０' | -1",
  })
  void hostPortIsOneToFiveAsciiDigits(String colonAndPort, int expected) {
    assertThat(RequestChecks.port(colonAndPort)).isEqualTo(expected);
  }
}
