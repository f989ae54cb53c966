package dev.mcpfusion.lock;

import java.util.List;

/**
 * The drift rules of how an action runs rather than what it takes or answers: the scopes a caller
 * needs (actions, prompts and resources alike), task support, per-entity serialisation and
 * async handlers, and the REST call of a {@code @Proxy} action.
 */
final class CallDrift {
  private CallDrift() {}

  /**
   * {@code @SerializeOn} and async handlers: a serialisation removed or keyed on another argument
   * lets calls on one entity race again (RISKY); one added only makes calls take turns (SAFE). A
   * handler that becomes async or blocking answers the same on the wire (SAFE); it is recorded
   * because deadlines and cancellations then cancel its stage instead of interrupting its thread.
   */
  static void serialization(Differ differ, String where, ActionContract b, ActionContract a) {
    String before = b.serializeOn().isEmpty() ? "none" : b.serializeOn();
    String after = a.serializeOn().isEmpty() ? "none" : a.serializeOn();
    if (!b.serializeOn().equals(a.serializeOn())) {
      if (a.serializeOn().isEmpty()) {
        differ.add(Severity.RISKY, where,
            "serialisation removed (calls on one entity may run at once)", before, after);
      } else if (b.serializeOn().isEmpty()) {
        differ.add(Severity.SAFE, where, "serialisation added (calls on one entity take turns)",
            before, after);
      } else {
        differ.add(Severity.RISKY, where, "serialisation key changed", before, after);
      }
    }
    if (b.async() != a.async()) {
      differ.add(Severity.SAFE, where, a.async() ? "handler now answers with a CompletionStage"
          : "handler no longer answers with a CompletionStage", "" + b.async(), "" + a.async());
    }
  }

  /**
   * A change of {@code @TaskSupport}: becoming required refuses every client that does not speak
   * the tasks extension (BREAKING); a required one becoming optional only admits more clients
   * (SAFE); any other change alters how a long call reaches the client — a task handle instead of
   * the result, or a connection held for the whole call (RISKY).
   */
  static void task(Differ differ, String where, String b, String a) {
    if (b.equals(a)) {
      return;
    }
    String before = b.isEmpty() ? "none" : b;
    String after = a.isEmpty() ? "none" : a;
    if ("REQUIRED".equals(a)) {
      differ.add(Severity.BREAKING, where, "task support now required (clients without the tasks "
          + "extension are refused)", before, after);
    } else if ("REQUIRED".equals(b) && "OPTIONAL".equals(a)) {
      differ.add(Severity.SAFE, where, "task support no longer required", before, after);
    } else {
      differ.add(Severity.RISKY, where, "task support changed", before, after);
    }
  }

  /**
   * A change of {@code @TaskSupport(inputFirst)} is RISKY either way: a task call of the action
   * then answers with input-required results before its task handle (or the handle at once, its
   * questions asked inside the task), a different sequence for a client that drives it.
   */
  static void taskInputFirst(Differ differ, String where, boolean b, boolean a) {
    if (b != a) {
      differ.add(Severity.RISKY, where, a
          ? "task calls now gather their answers (input-required results) before the task starts"
          : "task calls now start the task at once and ask inside it", "" + b, "" + a);
    }
  }

  /**
   * A scope required now that was not is BREAKING (callers that could call the action, get the
   * prompt or read the resource are refused); one no longer required is RISKY (callers without it
   * can now use it).
   */
  static void scopes(Differ differ, String where, List<String> before, List<String> after) {
    for (String scope : after) {
      if (!before.contains(scope)) {
        differ.add(Severity.BREAKING, where, "scope required", "(none)", Differ.q(scope));
      }
    }
    for (String scope : before) {
      if (!after.contains(scope)) {
        differ.add(Severity.RISKY, where, "scope no longer required", Differ.q(scope), "(none)");
      }
    }
  }

  /**
   * The REST call of a {@code @Proxy} action: another method, upstream or path, or a proxy put in
   * or taken out for a handler, sends the agent's arguments somewhere the committed contract did
   * not say (RISKY): the same tool now reads from, or writes to, another place.
   */
  static void proxy(Differ differ, String where, String b, String a) {
    if (!b.equals(a)) {
      differ.add(Severity.RISKY, where, "proxy call changed", b.isEmpty() ? "handler" : b,
          a.isEmpty() ? "handler" : a);
    }
  }

  /**
   * The declared policy of a {@code @Proxy} action's upstream ({@code @ProxyUpstream}), compared
   * when the action is a proxy on both sides. Widening where or how much the connector may call is
   * RISKY: a host or {@code *.domain} pattern added, a scheme added ({@code http} allowed), a larger
   * byte cap, a longer connect timeout or call deadline. Narrowing is SAFE: a host or scheme
   * dropped, a smaller cap or shorter timeout. Every proxy upstream is declared now, so a side
   * without a policy is a lockfile written before that: gaining one is SAFE (the first lockfile
   * after the upgrade), losing one RISKY (that older build was bounded by its configuration alone).
   */
  static void proxyPolicy(Differ differ, String where, ActionContract b, ActionContract a) {
    ProxyPolicy before = b.proxyPolicy();
    ProxyPolicy after = a.proxyPolicy();
    if (b.proxy().isEmpty() || a.proxy().isEmpty() || java.util.Objects.equals(before, after)) {
      return;
    }
    if (before == null || after == null) {
      differ.add(before == null ? Severity.SAFE : Severity.RISKY, where, before == null
          ? "proxy upstream policy declared" : "proxy upstream policy removed (only the server's configuration bounds"
          + " where it calls)", before == null ? "none" : describe(before), after == null ? "none" : describe(after));
      return;
    }
    members(differ, where, "host", before.hosts(), after.hosts());
    members(differ, where, "scheme", before.schemes(), after.schemes());
    bound(differ, where, "maxResponseBytes", before.maxResponseBytes(), after.maxResponseBytes());
    bound(differ, where, "connectTimeoutMs", before.connectTimeoutMs(), after.connectTimeoutMs());
    bound(differ, where, "timeoutMs", before.timeoutMs(), after.timeoutMs());
  }

  private static void members(Differ differ, String where, String what, List<String> b, List<String> a) {
    for (String value : a) {
      if (!b.contains(value)) {
        differ.add(Severity.RISKY, where, "proxy upstream may now call " + what + " " + Differ.q(value),
            b.toString(), a.toString());
      }
    }
    for (String value : b) {
      if (!a.contains(value)) {
        differ.add(Severity.SAFE, where, "proxy upstream no longer calls " + what + " " + Differ.q(value),
            b.toString(), a.toString());
      }
    }
  }

  private static void bound(Differ differ, String where, String name, long b, long a) {
    if (a > b) {
      differ.add(Severity.RISKY, where, "proxy upstream " + name + " raised", "" + b, "" + a);
    } else if (a < b) {
      differ.add(Severity.SAFE, where, "proxy upstream " + name + " lowered", "" + b, "" + a);
    }
  }

  private static String describe(ProxyPolicy p) {
    return p.schemes() + " " + p.hosts() + " " + p.maxResponseBytes() + " B, " + p.connectTimeoutMs() + "/"
        + p.timeoutMs() + " ms";
  }
}
