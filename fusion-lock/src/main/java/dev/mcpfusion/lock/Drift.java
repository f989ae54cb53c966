package dev.mcpfusion.lock;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The classified differences between a committed contract and the live one.
 *
 * <p>Classification (one rule per recorded property; every property of the lockfile has one):
 * <ul>
 *   <li>BREAKING: a tool or action removed; redaction removed from an action; a required field
 *       added (new, or an optional one made required); an input field's type changed (its schema without value constraints and
 *       descriptions: {@code type}, {@code format}, {@code enum}, items, nested properties); the
 *       egress of the presenter changed (field names or output shape, presenter gained or lost);
 *       the rules changed (static
 *       lines, or a {@code @Rules} method appearing or disappearing); {@code readOnly} or
 *       {@code destructive} flipped; the result shape or value type changed; the exposition or
 *       separator changed (every tool is renamed); an action, prompt or resource requiring a scope
 *       it did not ({@code @Scopes}: callers without it are refused); {@code @TaskSupport}
 *       becoming {@code REQUIRED} (clients without the tasks extension are refused).
 *   <li>RISKY: {@code idempotent} or {@code openWorld} flipped; the verb changed (its hints are
 *       classified on their own); an input field's value constraints changed ({@code minLength},
 *       {@code pattern}, {@code minimum}, ...: tightening can reject calls that passed, loosening
 *       cannot, and the direction is not computed); the middleware chain changed; a limit removed or
 *       loosened; the cache control or the invalidation patterns changed; custom Bean Validation
 *       ({@code @Constraint}/{@code @Valid}, not visible in the schema) turned on or off; the
 *       presenter (view class) changed; redaction loosened (a path, detector or pattern removed,
 *       or the mask going from FULL to PARTIAL); a {@code @Ui} method removed (a client may show
 *       the block it sent); a scope no longer required (callers without it may now call); a
 *       {@code @SerializeOn} removed or keyed on another argument (calls on one entity may race);
 *       any other change of {@code @TaskSupport} but {@code REQUIRED} to {@code OPTIONAL}, and
 *       {@code inputFirst} turned on or off (a task call's sequence of answers changes);
 *       a {@code @Proxy} action's method, upstream or path changed, or a proxy put in for a
 *       handler or taken out (the arguments go somewhere else); its upstream's declared policy
 *       ({@code @ProxyUpstream}) widened: a host or scheme added, a larger byte cap or a longer
 *       timeout, or no policy where the other side has one.
 *   <li>Field selection and paging: the {@code _select} input removed ({@code @Presenter(select =
 *       true)} turned off, or a mutation or neutral action no longer saying {@code select = true},
 *       which is also what a connector compiled before selection became opt-in for them records),
 *       or a {@code Page} result turned back into another shape, is BREAKING (an agent's
 *       {@code _select} or next cursor stops working); turning either on is SAFE (a
 *       collection becoming a page keeps its items and truncation fields and only adds the next
 *       cursor).
 *   <li>SAFE: a tool, action or optional field added; a required field removed or made optional
 *       (as issue 5 lists it: the generated decoder rejects unknown keys, so a caller that still
 *       sends a removed field gets a validation error naming it and can correct itself in one
 *       step); a limit added or tightened; redaction added or tightened; a {@code @Ui} method
 *       added (one more block the agent may ignore); a {@code @SerializeOn} added; a handler
 *       becoming async ({@code CompletionStage}) or blocking, which the agent cannot tell apart;
 *       {@code @TaskSupport} going from {@code REQUIRED} to {@code OPTIONAL}; a proxy upstream's
 *       policy narrowed (a host or scheme dropped, a smaller cap, a shorter timeout) or recorded
 *       where a lockfile written before the declaration was required has none.
 *   <li>COSMETIC: description text (router, action, input field, view field) and an action's
 *       title, which like a description only words the action; the committed file
 *       not being in canonical form while its content is unchanged.
 * </ul>
 *
 * <p>A fillable profile input ({@code @Input(profile = ...)}) is compared property by property
 * (see {@link ProfileDrift}): a property that becomes fillable is SAFE when optional and BREAKING
 * when required, like a top-level field; a property that stops being fillable, or a different
 * profile, is BREAKING.
 *
 * <p>Prompts and resources follow the same rules: a prompt or resource removed, a required prompt
 * argument added, a resource's MIME type or text/binary kind changed, or its presenter's egress or
 * rules changed is BREAKING; a resource moved to another router (its subscribers are notified by
 * other mutations) or a presenter changed is RISKY; one added, an optional argument added or an
 * argument removed or made optional is SAFE; names, titles, icons and descriptions are COSMETIC.
 *
 * <p><b>Which wins when a described view property's text changes.</b> The text of a
 * {@code @Describe}d view property is both a description in the output schema and a line of
 * {@code <domain_rules>}; the rules win: the change is reported once, as BREAKING {@code rules
 * changed}, because the agent acts on rule lines (a unit or a meaning can change with the words),
 * and the COSMETIC view-description line is dropped. With {@code @Describe(rule = false)} the text
 * is a schema description only and stays COSMETIC. Input field descriptions are never rules and
 * stay COSMETIC.
 *
 * <p>Any drift fails {@link #fails(Severity)} by default; a {@code failOn} threshold lets changes
 * below it pass (they are still reported).
 */
public final class Drift {
  private static final String SERVER = Differ.SERVER;
  private final List<Change> changes;

  private Drift(List<Change> changes) {
    this.changes = List.copyOf(changes);
  }

  /** The changes from {@code committed} to {@code live}, in tool, action and property order. */
  public static Drift between(Contract committed, Contract live) {
    Differ d = new Differ(live.profile().exposition());
    d.compare(committed, live);
    if (d.changes.isEmpty() && !committed.equals(live)) {
      // Fail safe, never silent: a recorded difference no rule above names.
      d.add(Severity.RISKY, SERVER, "changed in a way this version cannot classify");
    }
    return new Drift(d.changes);
  }

  /**
   * The drift of the committed lockfile text against the live contract: {@link #between} its
   * content, plus a COSMETIC line when the content is equal but the text is not the canonical
   * rendering (so that any difference fails a default check).
   *
   * @throws IllegalArgumentException if the text is not a readable lockfile (see {@link Lockfile#read(String)})
   */
  public static Drift check(String committedText, Contract live) {
    Drift drift = between(Lockfile.read(committedText), live);
    if (drift.isEmpty() && !committedText.equals(Lockfile.write(live))) {
      return new Drift(List.of(new Change(Severity.COSMETIC, SERVER,
          "lockfile is not in canonical form (whitespace, key order or line endings)", null, null)));
    }
    return drift;
  }

  /** Every change, in report order. */
  public List<Change> changes() {
    return changes;
  }

  /** Whether nothing changed. */
  public boolean isEmpty() {
    return changes.isEmpty();
  }

  /** The highest severity among the changes; empty when nothing changed. */
  public Optional<Severity> maxSeverity() {
    return changes.stream().map(Change::severity).max(Comparator.naturalOrder());
  }

  /**
   * Whether a check fails: with {@code failOn == null} (the default) on any change; otherwise when
   * some change is at least {@code failOn}.
   */
  public boolean fails(Severity failOn) {
    Severity threshold = failOn == null ? Severity.COSMETIC : failOn;
    return changes.stream().anyMatch(c -> c.severity().atLeast(threshold));
  }

  /** One line per change ({@link Change#line()}), joined with {@code "\n"}; empty when nothing changed. */
  public String report() {
    return String.join("\n", changes.stream().map(Change::line).toList());
  }

  @Override
  public String toString() {
    return isEmpty() ? "no drift" : report();
  }
}
