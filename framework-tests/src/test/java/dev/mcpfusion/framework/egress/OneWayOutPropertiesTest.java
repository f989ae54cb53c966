package dev.mcpfusion.framework.egress;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * One way out: whatever secrets a connector's data holds, no channel the server writes on carries
 * one unmasked, and no {@code tools/call} reply is larger than its byte cap — over the tester,
 * stdio and HTTP, in both protocol eras.
 *
 * <p>Each try plants random secrets (a Luhn-valid card number, an IBAN with its country's length
 * and a valid mod-97, Stripe/GitHub/Slack/AWS tokens, a note masked only by a view's
 * {@code @Redact} path, a {@code @Hidden} sentinel) in the vault fixture, then runs every channel
 * of {@link Channels} and checks every byte the server wrote. One server per transport and era
 * serves all its tries.
 */
class OneWayOutPropertiesTest {
  private static final int TRIES = 25;
  private static final Map<String, Channels> WIRES = new ConcurrentHashMap<>();

  @Provide
  Arbitrary<Plant> plants() {
    return Plant.plants();
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void overTheTesterInTheClassicEra(@ForAll("plants") Plant plant) {
    clean("tester classic", () -> Wire.tester(false), plant);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void overTheTesterIn2026(@ForAll("plants") Plant plant) {
    clean("tester modern", () -> Wire.tester(true), plant);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void overStdioInTheClassicEra(@ForAll("plants") Plant plant) {
    clean("stdio classic", () -> Wire.stdio(false), plant);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void overStdioIn2026(@ForAll("plants") Plant plant) {
    clean("stdio modern", () -> Wire.stdio(true), plant);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void overStreamableHttpWithASession(@ForAll("plants") Plant plant) {
    clean("http classic", () -> Wire.http(false), plant);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
  void overStatelessHttpIn2026(@ForAll("plants") Plant plant) {
    clean("http modern", () -> Wire.http(true), plant);
  }

  private static void clean(String key, Supplier<Wire> open, Plant plant) {
    Channels channels = WIRES.computeIfAbsent(key, k -> new Channels(open.get()));
    List<String> problems = channels.exercise(plant);
    if (!problems.isEmpty()) {
      throw new AssertionError(channels.wire().name() + ": " + problems.size()
          + " problem(s) in one try, planting " + plant + "\n  " + String.join("\n  ", problems));
    }
  }

  @AfterContainer
  static void closeWires() {
    for (Channels channels : WIRES.values()) {
      channels.close();
    }
    WIRES.clear();
  }
}
