package dev.mcpfusion.core.redact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every path form and every detector, on text and on nested trees; what they must leave alone. */
class RedactorTest {
  static Redactor redactor(Redaction policy) {
    return Redactions.compile(policy);
  }

  static String text(Detector detector, String text) {
    return redactor(Redaction.detecting(detector)).text(text, new Tally());
  }

  static String partial(Detector detector, String text) {
    return redactor(Redaction.detecting(detector).mask(Mask.PARTIAL)).text(text, new Tally());
  }

  @Test
  void emailIsFoundInsideText() {
    assertThat(text(Detector.EMAIL, "Write to alice.smith+billing@example.co.uk today."))
        .isEqualTo("Write to [REDACTED] today.");
    assertThat(text(Detector.EMAIL, "a@b is not an address, @handle neither"))
        .isEqualTo("a@b is not an address, @handle neither");
  }

  @Test
  void cardNumbersNeedTheLuhnCheck() {
    assertThat(text(Detector.CARD, "card 4111 1111 1111 1111 on file"))
        .isEqualTo("card [REDACTED] on file");
    assertThat(text(Detector.CARD, "5500-0000-0000-0004")).isEqualTo("[REDACTED]");
    assertThat(text(Detector.CARD, "378282246310005")).isEqualTo("[REDACTED]");
    // One digit off fails the checksum; a long order number is not a card.
    assertThat(text(Detector.CARD, "card 4111 1111 1111 1112")).isEqualTo("card 4111 1111 1111 1112");
    assertThat(text(Detector.CARD, "order 12345678901234")).isEqualTo("order 12345678901234");
    assertThat(partial(Detector.CARD, "4111 1111 1111 1111")).isEqualTo("**** **** **** 1111");
  }

  @Test
  void ibanNeedsItsCountryLengthAndMod97() {
    assertThat(text(Detector.IBAN, "pay to GB82 WEST 1234 5698 7654 32 please"))
        .isEqualTo("pay to [REDACTED] please");
    assertThat(text(Detector.IBAN, "DE89370400440532013000")).isEqualTo("[REDACTED]");
    assertThat(text(Detector.IBAN, "GB82WEST12345698765433")).isEqualTo("GB82WEST12345698765433");
    // Right checksum digits, wrong length for Germany.
    assertThat(text(Detector.IBAN, "DE8937040044053201300")).isEqualTo("DE8937040044053201300");
    assertThat(partial(Detector.IBAN, "DE89370400440532013000")).isEqualTo("******************3000");
  }

  @Test
  void ssnSkipsNumbersNeverIssued() {
    assertThat(text(Detector.SSN, "SSN 123-45-6789.")).isEqualTo("SSN [REDACTED].");
    assertThat(text(Detector.SSN, "000-12-3456 666-12-3456 912-12-3456 123-00-4567 123-45-0000"))
        .isEqualTo("000-12-3456 666-12-3456 912-12-3456 123-00-4567 123-45-0000");
    assertThat(text(Detector.SSN, "2026-12-01")).isEqualTo("2026-12-01");
  }

  @Test
  void phonesInternationalAndNorthAmerican() {
    assertThat(text(Detector.PHONE, "call +44 20 7946 0958 now")).isEqualTo("call [REDACTED] now");
    assertThat(text(Detector.PHONE, "(415) 555-0132")).isEqualTo("[REDACTED]");
    assertThat(text(Detector.PHONE, "415-555-0132 or 415.555.0132"))
        .isEqualTo("[REDACTED] or [REDACTED]");
    assertThat(text(Detector.PHONE, "+14155550132")).isEqualTo("[REDACTED]");
    assertThat(text(Detector.PHONE, "due 2026-12-01, order 12345678, SSN 123-45-6789, v1.2.3"))
        .isEqualTo("due 2026-12-01, order 12345678, SSN 123-45-6789, v1.2.3");
  }

  @Test
  void apiKeysAndTokens() {
    String stripe = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc";
    String github = "ghp_" + "a".repeat(36);
    String aws = "AKIA" + "IOSFODNN7EXAMPLE";
    String header = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
    String jwt = header + "." + b64("{\"sub\":\"1234567890\"}") + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    assertThat(text(Detector.API_KEY, "key=" + stripe + " gh " + github + " aws " + aws))
        .isEqualTo("key=[REDACTED] gh [REDACTED] aws [REDACTED]");
    assertThat(text(Detector.API_KEY, "Bearer " + jwt)).isEqualTo("Bearer [REDACTED]");
    // A JWT shape whose header is not JSON, and short look-alikes, stay.
    String fake = "eyJ" + "notbase64json!".replace("!", "x") + ".eyJabcdefghij.sig";
    assertThat(text(Detector.API_KEY, fake + " sk_live_short ghp_tooShort"))
        .isEqualTo(fake + " sk_live_short ghp_tooShort");
  }

  @Test
  void theOnePassPrefilterLetsEverySeparatorStyleThrough() {
    Redactor all = redactor(Redaction.detecting(Detector.values()));
    // Separators between digit groups, up to three in a row: ") (", ". ", "-".
    assertThat(all.text("call +44 (20) 7946-0958 or +1 (415) 555-0132", new Tally()))
        .isEqualTo("call [REDACTED] or [REDACTED]");
    assertThat(all.text("(415) 555-0132", new Tally())).isEqualTo("[REDACTED]");
    assertThat(all.text("415.555.0132", new Tally())).isEqualTo("[REDACTED]");
    assertThat(all.text("card 4111-1111-1111-1111, ssn 123-45-6789", new Tally()))
        .isEqualTo("card [REDACTED], ssn [REDACTED]");
    // A timestamp, a date and an amount: no run of digits a detector needs.
    String plain = "due 2026-01-15T10:00:00Z, total 1234.56, id INV-0042";
    assertThat(all.text(plain, new Tally())).isSameAs(plain);
  }

  @Test
  void aStringFoundCleanIsRememberedButOneWithASecretIsMaskedEveryTime() {
    Redactor all = redactor(Redaction.detecting(Detector.values()));
    String clean = "Money is in integer cents. Divide by 100 before showing it to a person.";
    String secret = "Write to alice@example.com about it.";
    for (int i = 0; i < 3; i++) {
      Tally tally = new Tally();
      assertThat(all.text(clean, tally)).isSameAs(clean);
      assertThat(all.text(secret, tally)).isEqualTo("Write to [REDACTED] about it.");
      assertThat(tally.count()).isEqualTo(1);
    }
    // Equal text in another instance is scanned again, with the same verdict.
    String copy = new String("Write to alice@example.com about it.");
    assertThat(all.text(copy, new Tally())).isEqualTo("Write to [REDACTED] about it.");
  }

  @Test
  void userPatternsMaskEveryMatch() {
    Redactor r = redactor(Redaction.none().pattern("employee id", "EMP-\\d{6}"));
    Tally tally = new Tally();
    assertThat(r.text("EMP-123456 and EMP-654321, not EMP-12", tally))
        .isEqualTo("[REDACTED] and [REDACTED], not EMP-12");
    assertThat(tally.count()).isEqualTo(2);
  }

  @Test
  void overlappingFindingsAreMaskedOnceAndCountedOnce() {
    Redactor r = redactor(Redaction.detecting(Detector.EMAIL, Detector.PHONE));
    Tally tally = new Tally();
    // The phone number is the start of the address: one span.
    assertThat(r.text("x +14155550132@sms.example.com y", tally)).isEqualTo("x [REDACTED] y");
    assertThat(tally.count()).isEqualTo(1);
  }

  @Test
  void anyDepthPathMatchesTopLevelAndNested() {
    Redactor r = redactor(Redaction.paths("*.email"));
    Object out = r.tree(tree("id", "C-1", "email", "a@x.io",
        "contacts", List.of(tree("email", "b@x.io", "name", "Bo"), tree("email", "c@x.io")),
        "owner", tree("profile", tree("email", "d@x.io"))), new Tally());
    assertThat(out).hasToString("{id=C-1, email=[REDACTED], contacts=[{email=[REDACTED], name=Bo},"
        + " {email=[REDACTED]}], owner={profile={email=[REDACTED]}}}");
  }

  /**
   * A view whose schema is closed and names no place a path matches skips path matching in its
   * data, and only there; an open object anywhere in the view (a map, an untyped or unresolved
   * part) keeps every path.
   */
  @Test
  void pathsAreSkippedInAViewsDataOnlyWhenItsSchemaProvesNoneCanMatch() {
    Redactor r = redactor(Redaction.paths("*.code"));
    String closed = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
        + "\"lines\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":"
        + "{\"n\":{\"type\":\"integer\"}},\"additionalProperties\":false}}},"
        + "\"additionalProperties\":false}";
    Redactor view = r.forView(closed, List.of());
    // A presenter writes only declared fields, so "code" cannot occur in this view's data; the
    // tree below is not such data, and shows that the data walk no longer looks at paths.
    assertThat(view.viewTree(tree("code", "X1"), new Tally())).hasToString("{code=X1}");
    // Suggestion arguments and error details are not the view's data: every path still applies.
    assertThat(view.tree(tree("code", "X1"), new Tally())).hasToString("{code=[REDACTED]}");

    String declared = closed.replace("\"id\"", "\"code\"");
    assertThat(r.forView(declared, List.of()).viewTree(tree("code", "X1"), new Tally()))
        .hasToString("{code=[REDACTED]}");
    for (String open : List.of(
        closed.replace(",\"additionalProperties\":false}}}", "}}}"),
        closed.replace("{\"type\":\"string\"}", "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}"),
        closed.replace("{\"type\":\"string\"}", "{\"description\":\"anything\"}"),
        closed.replace("{\"type\":\"string\"}", "{\"$ref\":\"#/$defs/Other\"}"),
        closed.replace("{\"type\":\"string\"}", "{\"type\":\"array\"}"),
        closed.replace("{\"type\":\"string\"}", "true"))) {
      assertThat(r.forView(open, List.of()).viewTree(tree("id", tree("code", "X1")), new Tally()))
          .as(open).hasToString("{id={code=[REDACTED]}}");
    }
  }

  static final String CLOSED_VIEW = "{\"type\":\"object\",\"properties\":{"
      + "\"id\":{\"type\":\"string\"},"
      + "\"total\":{\"type\":\"integer\"},"
      + "\"paid\":{\"type\":[\"boolean\",\"null\"]},"
      + "\"status\":{\"type\":\"string\",\"enum\":[\"OPEN\",\"PAID\"]},"
      + "\"owner\":{\"type\":\"string\",\"enum\":[\"ops@example.com\",\"none\"]},"
      + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
      + "\"contact\":{\"type\":\"object\",\"properties\":{\"email\":{\"type\":\"string\"}},"
      + "\"additionalProperties\":false}},\"additionalProperties\":false}";

  /**
   * A closed view's data is walked by the fields that can hold text (strings, arrays, objects, and
   * an enum only when one of its values holds something to mask), with the same result as the
   * whole walk on every tree the view can produce.
   */
  @Test
  void aClosedViewsDataIsWalkedByTheFieldsThatCanHoldText() {
    Redactor r = redactor(Redaction.detecting(Detector.EMAIL));
    Redactor view = r.forView(CLOSED_VIEW, List.of());
    Map<String, Object> data = tree("id", "a@b.io", "total", 7, "paid", true, "status", "OPEN",
        "owner", "ops@example.com", "tags", List.of("x", "c@d.io"), "contact", tree("email", "e@f.io"));
    Tally byFields = new Tally();
    Tally whole = new Tally();
    Object masked = view.viewTree(data, byFields);
    assertThat(masked).isEqualTo(r.tree(data, whole)).hasToString("{id=[REDACTED], total=7,"
        + " paid=true, status=OPEN, owner=[REDACTED], tags=[x, [REDACTED]], contact={email=[REDACTED]}}");
    assertThat(byFields.count()).isEqualTo(whole.count()).isEqualTo(4);
    assertThat(data).containsEntry("id", "a@b.io"); // copy on write
    Map<String, Object> clean = tree("id", "INV-1", "total", 7, "status", "PAID");
    assertThat(view.viewTree(clean, new Tally())).isSameAs(clean);

    // A number, a boolean or a clean enum is not looked at: values the view cannot hold show it.
    assertThat(view.viewTree(tree("total", "g@h.io", "paid", "g@h.io", "status", "g@h.io"),
        new Tally())).hasToString("{total=g@h.io, paid=g@h.io, status=g@h.io}");
    // More fields than the view declares is not the view's data: walked whole.
    Map<String, Object> more = new LinkedHashMap<>(data);
    more.put("extra", "x@y.io");
    more.put("total", "g@h.io");
    assertThat(view.viewTree(more, new Tally())).hasToString("{id=[REDACTED], total=[REDACTED],"
        + " paid=true, status=OPEN, owner=[REDACTED], tags=[x, [REDACTED]],"
        + " contact={email=[REDACTED]}, extra=[REDACTED]}");
    // An open schema, or a path that names a field of the view: every field is walked.
    Redactor open = r.forView(CLOSED_VIEW.replace(",\"additionalProperties\":false}", "}"), List.of());
    Redactor pathInView = redactor(Redaction.paths("*.email").detect(Detector.EMAIL))
        .forView(CLOSED_VIEW, List.of());
    for (Redactor walksAll : List.of(open, pathInView)) {
      assertThat(walksAll.viewTree(tree("total", "g@h.io"), new Tally()))
          .hasToString("{total=[REDACTED]}");
    }
  }

  /**
   * What is vouched for without a walk: a view whose text fields hold strings no finder can match
   * (or has seen clean). Anything else is left to the walk: a string a finder may match, a nested
   * value, a tree the schema does not describe, or a redactor not fitted to a closed view.
   */
  @Test
  void aCleanViewIsVouchedForWithoutAWalk() {
    Redactor r = redactor(Redaction.paths("*.cardNumber").detect(Detector.values()));
    Redactor view = r.forView(CLOSED_VIEW, List.of());
    // No finder's condition holds: an id, a clean enum, an email-free owner value.
    assertThat(view.viewClean(tree("id", "INV-1", "total", 7, "status", "OPEN", "owner", "none")))
        .isTrue();
    // Numbers and clean enums are not looked at, as in the walk.
    assertThat(view.viewClean(tree("id", "INV-1", "total", "a@b.io", "status", "a@b.io"))).isTrue();
    // A finder's condition holds (an @, a long digit run): left to the walk, even if it is clean.
    assertThat(view.viewClean(tree("id", "a@b.io"))).isFalse();
    assertThat(view.viewClean(tree("id", "ask at the desk @ noon"))).isFalse();
    assertThat(view.viewClean(tree("id", "4111 1111 1111 1111"))).isFalse();
    // ...until the walk has found that very string clean.
    String seen = "ask at the desk @ noon";
    Map<String, Object> once = tree("id", seen);
    assertThat(view.viewTree(once, new Tally())).isSameAs(once);
    assertThat(view.viewClean(tree("id", seen))).isTrue();
    // Nested values, more fields than declared, an open schema, a path in the view: not vouched.
    assertThat(view.viewClean(tree("tags", List.of("x")))).isFalse();
    assertThat(view.viewClean(tree("contact", tree("email", "none")))).isFalse();
    Map<String, Object> more = new LinkedHashMap<>(tree("id", "INV-1", "total", 7, "paid", true,
        "status", "OPEN", "owner", "none", "tags", List.of(), "contact", tree()));
    more.put("extra", "x");
    assertThat(view.viewClean(more)).isFalse();
    assertThat(r.forView(CLOSED_VIEW.replace(",\"additionalProperties\":false}", "}"), List.of())
        .viewClean(tree("id", "INV-1"))).isFalse();
    assertThat(redactor(Redaction.paths("*.email").detect(Detector.EMAIL)).forView(CLOSED_VIEW,
        List.of()).viewClean(tree("id", "INV-1"))).isFalse();
    assertThat(r.viewClean(tree("id", "INV-1"))).isFalse();
  }

  /** A view's static rules are checked once, when the redactor is fitted to the view. */
  @Test
  void staticRulesAreCheckedOnceForTheView() {
    Redactor r = redactor(Redaction.detecting(Detector.EMAIL));
    assertThat(r.staticRulesClean()).isFalse();
    assertThat(r.forView(CLOSED_VIEW, List.of()).staticRulesClean()).isTrue();
    assertThat(r.forView(CLOSED_VIEW, List.of("Amounts are in cents.")).staticRulesClean()).isTrue();
    assertThat(r.forView(CLOSED_VIEW, List.of("Amounts are in cents.", "Ask ops@example.com."))
        .staticRulesClean()).isFalse();
  }

  @Test
  void elementPathMatchesOnlyItemsOfThatList() {
    Redactor r = redactor(Redaction.paths("items[*].cardNumber").mask(Mask.PARTIAL));
    Tally tally = new Tally();
    Object out = r.tree(tree(
        "cardNumber", "4111111111111111",
        "items", List.of(tree("cardNumber", "4111111111111111"), tree("cardNumber", "5500000000000004")),
        "other", List.of(tree("cardNumber", "378282246310005"))), tally);
    assertThat(out).hasToString("{cardNumber=4111111111111111, items=[{cardNumber=************1111},"
        + " {cardNumber=************0004}], other=[{cardNumber=378282246310005}]}");
    assertThat(tally.count()).isEqualTo(2);
  }

  @Test
  void exactPathMatchesOnlyThatPath() {
    Redactor r = redactor(Redaction.paths("owner.name"));
    Object out = r.tree(tree("name", "Top", "owner", tree("name", "Ada"),
        "team", List.of(tree("owner", tree("name", "Bob")))), new Tally());
    assertThat(out).hasToString("{name=Top, owner={name=[REDACTED]}, team=[{owner={name=Bob}}]}");
  }

  @Test
  void aPathOnAListOfStringsMasksEveryElementEvenInNestedLists() {
    Redactor r = redactor(Redaction.paths("*.phones"));
    Object out = r.tree(tree("groups", List.of(tree("phones", List.of("1", "2")),
        tree("phones", List.of()))), new Tally());
    assertThat(out).hasToString("{groups=[{phones=[[REDACTED], [REDACTED]]}, {phones=[]}]}");
  }

  @Test
  void detectorsReachEveryStringOfNestedCollectionsButNotNumbers() {
    Redactor r = redactor(Redaction.detecting(Detector.SSN));
    Tally tally = new Tally();
    Object out = r.tree(tree("rows", List.of(List.of("123-45-6789", 1234567890L),
        List.of(tree("note", "ssn 123-45-6789")))), tally);
    assertThat(out).hasToString("{rows=[[[REDACTED], 1234567890], [{note=ssn [REDACTED]}]]}");
    assertThat(tally.count()).isEqualTo(2);
  }

  @Test
  void aValueThatIsNotPlainJsonIsRefusedNotPassedOn() {
    Redactor r = redactor(Redaction.detecting(Detector.EMAIL));
    assertThatThrownBy(() -> r.tree(tree("x", new StringBuilder("a@b.io")), new Tally()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("java.lang.StringBuilder")
        .hasMessageNotContaining("a@b.io");
  }

  @Test
  void malformedPathsNameThePatternAndTheForms() {
    assertThatThrownBy(() -> Redactions.compile(Redaction.paths("items[0].x")))
        .hasMessageContaining("\"items[0].x\"").hasMessageContaining("\"*.email\"");
    assertThatThrownBy(() -> Redactions.compile(Redaction.paths("a..b"))).hasMessageContaining("a..b");
    assertThatThrownBy(() -> Redactions.compile(Redaction.paths("**.x"))).hasMessageContaining("**.x");
  }

  @Test
  void pathsAreCheckedAgainstTheOutputSchema() {
    String schema = "{\"type\":\"object\",\"properties\":{"
        + "\"email\":{\"type\":\"string\"},"
        + "\"age\":{\"type\":\"integer\"},"
        + "\"status\":{\"type\":\"string\",\"enum\":[\"A\"]},"
        + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
        + "\"cards\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":"
        + "{\"number\":{\"type\":[\"string\",\"null\"]}}}}}}";
    assertThat(redactor(Redaction.paths("email", "*.tags", "cards[*].number", "*.number"))
        .checkAgainst(Json.parse(schema), true)).isEmpty();
    assertThat(redactor(Redaction.paths("age", "status", "cards", "nope"))
        .checkAgainst(Json.parse(schema), true)).containsExactly(
            new Redactor.PathProblem("age", "age", "type \"integer\""),
            new Redactor.PathProblem("status", "status", "an enum"),
            new Redactor.PathProblem("cards", "cards", "type \"array\""),
            new Redactor.PathProblem("nope", null, null));
    // A server-wide path need not match every view.
    assertThat(redactor(Redaction.paths("*.nope")).checkAgainst(Json.parse(schema), false)).isEmpty();
  }

  static Map<String, Object> tree(Object... keyValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  static String b64(String json) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
