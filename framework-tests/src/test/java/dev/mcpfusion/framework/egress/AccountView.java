package dev.mcpfusion.framework.egress;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Redact;
import dev.mcpfusion.annotation.Rules;
import dev.mcpfusion.annotation.Suggest;
import dev.mcpfusion.annotation.Ui;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import java.util.List;
import java.util.Map;

/**
 * What an agent may see of an {@link Account}: everything but the sentinel, with the note masked
 * by path (no detector would find it) and the detectors the server uses.
 *
 * <p>The view repeats the server's detectors because a view's {@code @Redact} replaces the
 * server-wide policy for what the view presents (docs/guide/egress.md, "Masking personal data"); the property
 * must not depend on whether the egress chain keeps that rule or adds the two.
 *
 * <p>Its rules, suggestions and UI block repeat secrets, so that every part of a presented reply
 * carries one: the rules and suggestions only what a detector finds (a path masks data, not prose),
 * the UI block the note too, which a view's path masks wherever a UI block repeats it.
 */
@Presenter(model = Account.class)
@Redact(paths = "note", detect = {Detector.CARD, Detector.IBAN, Detector.API_KEY})
public record AccountView(String id, String holder, String card, String iban, String stripeKey,
    String githubToken, String slackToken, String awsKeyId, String note) {

  @Rules
  static List<String> rules(AccountView v) {
    return List.of("The card on file is " + v.card() + "; payouts go to " + v.iban() + ".");
  }

  @Suggest
  static List<Suggestion> next(AccountView v) {
    return List.of(Suggestion.of("vault.lock_account",
        "Lock the account if the key " + v.stripeKey() + " leaked;",
        Map.of("id", v.id(), "evidence", "token " + v.githubToken() + ";")));
  }

  @Ui
  static UiBlock keys(AccountView v) {
    return UiBlock.markdown("Keys of " + v.slackToken() + ";",
        "AWS key " + v.awsKeyId() + "; note: " + v.note());
  }
}
