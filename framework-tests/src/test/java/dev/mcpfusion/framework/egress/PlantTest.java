package dev.mcpfusion.framework.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The egress property's secrets are what the server's detectors claim to find, and its search
 * finds them in every form a detector claims and never in a masked one: otherwise the property
 * could pass while secrets leave, or fail on text no detector would touch.
 */
class PlantTest {
  private static final String MASK = "[REDACTED]";
  private static FusionTester tester;

  @Provide
  Arbitrary<Plant> plants() {
    return Plant.plants();
  }

  @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
  void theServersDetectorsMaskEveryPlantedSecretWhole(@ForAll("plants") Plant plant) {
    ToolResult opened = vault().call("vault", "open_account", arguments(plant));
    assertThat(opened.isSuccess()).as(opened.raw()).isTrue();
    // Each field holds exactly one secret: masked whole, the detector found all of it.
    assertThat(opened.structuredContent())
        .containsEntry("card", MASK).containsEntry("iban", MASK)
        .containsEntry("stripeKey", MASK).containsEntry("githubToken", MASK)
        .containsEntry("slackToken", MASK).containsEntry("awsKeyId", MASK)
        .containsEntry("note", MASK)
        .doesNotContainKey("sentinel");
  }

  @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
  void aSecretIsFoundInEveryFormItsDetectorClaims(@ForAll("plants") Plant plant,
      @ForAll long seed) {
    Random random = new Random(seed);
    String card = regrouped(plant.card().replaceAll("[^0-9]", ""), 0, random, "", " ", "-");
    String iban = regrouped(plant.iban().replace(" ", ""), 4, random, "", " ");
    String text = "card " + card + "; iban " + iban + "; keys " + String.join("; ", plant.keys())
        + "; " + plant.note() + " " + plant.sentinel() + ".";
    assertThat(plant.leaks(text)).extracting(Plant.Leak::kind).containsExactly("card", "IBAN",
        "Stripe key", "GitHub token", "Slack token", "AWS key id", "@Redact note",
        "@Hidden sentinel");
  }

  @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
  void aMaskedSecretIsNoLeak(@ForAll("plants") Plant plant) {
    String full = "card " + MASK + "; iban " + MASK + "; keys " + MASK + "; note " + MASK + ".";
    String partial = "card " + partial(plant.card()) + "; iban " + partial(plant.iban())
        + "; keys " + String.join("; ", plant.keys().stream().map(PlantTest::partial).toList())
        + ";";
    assertThat(plant.leaks(full)).isEmpty();
    assertThat(plant.leaks(partial)).isEmpty();
  }

  /** {@code text} with a separator from {@code separators} after each character past {@code from}. */
  private static String regrouped(String text, int from, Random random, String... separators) {
    StringBuilder out = new StringBuilder(text.substring(0, Math.max(from, 1)));
    for (int i = Math.max(from, 1); i < text.length(); i++) {
      out.append(separators[random.nextInt(separators.length)]).append(text.charAt(i));
    }
    return out.toString();
  }

  /** {@code Mask.PARTIAL}: every letter and digit but the last four becomes {@code *}. */
  private static String partial(String secret) {
    int keep = 0;
    StringBuilder out = new StringBuilder(secret);
    for (int i = out.length() - 1; i >= 0; i--) {
      if (Character.isLetterOrDigit(out.charAt(i)) && keep++ >= 4) {
        out.setCharAt(i, '*');
      }
    }
    return out.toString();
  }

  private static Map<String, Object> arguments(Plant plant) {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("id", "acct-" + Integer.toHexString(System.identityHashCode(plant)));
    args.put("holder", "Ada Lovelace");
    args.put("card", plant.card());
    args.put("iban", plant.iban());
    List<String> keys = plant.keys();
    args.put("stripeKey", keys.get(0));
    args.put("githubToken", keys.get(1));
    args.put("slackToken", keys.get(2));
    args.put("awsKeyId", keys.get(3));
    args.put("note", plant.note());
    args.put("sentinel", plant.sentinel());
    return args;
  }

  private static synchronized FusionTester vault() {
    if (tester == null) {
      tester = FusionTester.of(VaultServer.builder());
    }
    return tester;
  }

  @AfterContainer
  static synchronized void close() {
    if (tester != null) {
      tester.close();
      tester = null;
    }
  }
}
