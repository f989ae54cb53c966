package dev.mcpfusion.lock;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Walks two contracts in a fixed order and records one change per differing property, each with
 * the severity {@link Drift}'s rules give it.
 */
final class Differ {
  static final String SERVER = "server";
  /** The field-selection input ({@code @Presenter(select = true)}). */
  private static final String SELECT = "_select";

  private final Exposition exposition;
  final List<Change> changes = new ArrayList<>();

  Differ(Exposition exposition) {
    this.exposition = exposition;
  }

  void add(Severity s, String where, String what) {
    changes.add(new Change(s, where, what, null, null));
  }

  void add(Severity s, String where, String what, String before, String after) {
    changes.add(new Change(s, where, what, before, after));
  }

  void compare(Contract before, Contract after) {
    if (before.profile().exposition() != after.profile().exposition()) {
      add(Severity.BREAKING, SERVER, "exposition changed (every tool is renamed)",
          before.profile().exposition().name(), after.profile().exposition().name());
    }
    if (!before.profile().separator().equals(after.profile().separator())) {
      add(Severity.BREAKING, SERVER, "separator changed (every FLAT tool is renamed)",
          q(before.profile().separator()), q(after.profile().separator()));
    }
    for (String name : union(before.tools(), after.tools())) {
      ToolContract b = before.tools().get(name);
      ToolContract a = after.tools().get(name);
      if (a == null) {
        add(Severity.BREAKING, name, "tool removed");
      } else if (b == null) {
        add(Severity.SAFE, name, "tool added");
      } else {
        tool(b, a);
      }
    }
    for (String name : union(before.prompts(), after.prompts())) {
      PromptContract b = before.prompts().get(name);
      PromptContract a = after.prompts().get(name);
      String where = "prompt " + name;
      if (a == null) {
        add(Severity.BREAKING, where, "prompt removed");
      } else if (b == null) {
        add(Severity.SAFE, where, "prompt added");
      } else {
        int mark = changes.size();
        prompt(where, b, a);
        if (changes.size() == mark && !b.equals(a)) {
          add(Severity.RISKY, where, "changed in a way this version cannot classify");
        }
      }
    }
    SurfaceDrift.compare(this, before.surfaces(), after.surfaces());
    for (String uri : union(before.resources(), after.resources())) {
      ResourceContract b = before.resources().get(uri);
      ResourceContract a = after.resources().get(uri);
      String where = "resource " + uri;
      if (a == null) {
        add(Severity.BREAKING, where, "resource removed");
      } else if (b == null) {
        add(Severity.SAFE, where, "resource added");
      } else {
        int mark = changes.size();
        resource(where, b, a);
        if (changes.size() == mark && !b.equals(a)) {
          add(Severity.RISKY, where, "changed in a way this version cannot classify");
        }
      }
    }
  }

  private void prompt(String where, PromptContract b, PromptContract a) {
    if (!b.description().equals(a.description())) {
      add(Severity.COSMETIC, where, "description changed", q(b.description()), q(a.description()));
    }
    if (!b.title().equals(a.title())) {
      add(Severity.COSMETIC, where, "title changed", q(b.title()), q(a.title()));
    }
    if (!b.icons().equals(a.icons())) {
      add(Severity.COSMETIC, where, "icons changed", icons(b.icons()), icons(a.icons()));
    }
    if (!b.router().equals(a.router())) {
      add(Severity.RISKY, where, "router changed", q(b.router()), q(a.router()));
    }
    for (String name : union(b.arguments(), a.arguments())) {
      Boolean br = b.arguments().get(name);
      Boolean ar = a.arguments().get(name);
      if (ar == null) {
        add(Severity.SAFE, where, (br ? "required" : "optional") + " argument removed: " + name);
      } else if (br == null) {
        add(ar ? Severity.BREAKING : Severity.SAFE, where,
            (ar ? "required" : "optional") + " argument added: " + name);
      } else if (!br && ar) {
        add(Severity.BREAKING, where, "required argument added: " + name + " (was optional)");
      } else if (br && !ar) {
        add(Severity.SAFE, where, "required argument removed: " + name + " (now optional)");
      }
      String bd = b.argumentDescriptions().get(name);
      String ad = a.argumentDescriptions().get(name);
      if (bd != null && ad != null && !bd.equals(ad)) {
        add(Severity.COSMETIC, where, "description of argument " + name + " changed", q(bd), q(ad));
      }
    }
    presenter(where, b.presenter(), a.presenter());
    limits(where, b.limits(), a.limits());
    completionLimits(where, b.completionLimits(), a.completionLimits());
    CallDrift.scopes(this, where, b.scopes(), a.scopes());
  }

  /** The limits of each argument's completion method, as a member's limits. */
  private void completionLimits(String where, Map<String, Map<String, Long>> b,
      Map<String, Map<String, Long>> a) {
    for (String argument : union(b, a)) {
      limits(where + " (completion of " + argument + ")", b.getOrDefault(argument, Map.of()),
          a.getOrDefault(argument, Map.of()));
    }
  }

  private void resource(String where, ResourceContract b, ResourceContract a) {
    if (!b.name().equals(a.name())) {
      add(Severity.COSMETIC, where, "name changed", q(b.name()), q(a.name()));
    }
    if (!b.title().equals(a.title())) {
      add(Severity.COSMETIC, where, "title changed", q(b.title()), q(a.title()));
    }
    if (!b.icons().equals(a.icons())) {
      add(Severity.COSMETIC, where, "icons changed", icons(b.icons()), icons(a.icons()));
    }
    if (!b.description().equals(a.description())) {
      add(Severity.COSMETIC, where, "description changed", q(b.description()), q(a.description()));
    }
    if (!b.mimeType().equals(a.mimeType())) {
      add(Severity.BREAKING, where, "mimeType changed", q(b.mimeType()), q(a.mimeType()));
    }
    if (b.binary() != a.binary()) {
      add(Severity.BREAKING, where, "content kind changed", b.binary() ? "binary" : "text",
          a.binary() ? "binary" : "text");
    }
    if (!b.router().equals(a.router())) {
      add(Severity.RISKY, where, "router changed (other mutations notify its subscribers)",
          q(b.router()), q(a.router()));
    }
    presenter(where, b.presenter(), a.presenter());
    limits(where, b.limits(), a.limits());
    completionLimits(where, b.completionLimits(), a.completionLimits());
    CallDrift.scopes(this, where, b.scopes(), a.scopes());
  }

  private void tool(ToolContract b, ToolContract a) {
    if (!Objects.equals(b.description(), a.description())) {
      add(Severity.COSMETIC, a.name(), "description changed", q(b.description()), q(a.description()));
    }
    boolean flatTool = exposition == Exposition.FLAT && a.actions().size() == 1 && b.actions().size() == 1;
    for (String name : union(b.actions(), a.actions())) {
      String where = flatTool && b.actions().containsKey(name) && a.actions().containsKey(name)
          ? a.name() : a.name() + " (action: " + name + ")";
      ActionContract ba = b.actions().get(name);
      ActionContract aa = a.actions().get(name);
      if (aa == null) {
        add(Severity.BREAKING, where, "action removed");
      } else if (ba == null) {
        add(Severity.SAFE, where, "action added");
      } else {
        int mark = changes.size();
        action(where, ba, aa);
        if (changes.size() == mark && !ba.equals(aa)) {
          // A property this version records but does not classify: fail safe, never silent.
          add(Severity.RISKY, where, "changed in a way this version cannot classify");
        }
      }
    }
  }

  private void action(String where, ActionContract b, ActionContract a) {
    if (!b.inputSchema().equals(a.inputSchema()) && b.inputs().isEmpty() && a.inputs().isEmpty()) {
      // An @InputSchema document changed: what it now accepts is not classified keyword by keyword.
      add(Severity.RISKY, where, "input schema document changed");
    }
    if (!b.description().equals(a.description())) {
      add(Severity.COSMETIC, where, "description changed", q(b.description()), q(a.description()));
    }
    if (!b.title().equals(a.title())) {
      add(Severity.COSMETIC, where, "title changed", q(b.title()), q(a.title()));
    }
    if (b.readOnly() != a.readOnly()) {
      add(Severity.BREAKING, where, "readOnly flipped", "" + b.readOnly(), "" + a.readOnly());
    }
    if (b.destructive() != a.destructive()) {
      add(Severity.BREAKING, where, "destructive flipped", "" + b.destructive(), "" + a.destructive());
    }
    if (b.idempotent() != a.idempotent()) {
      add(Severity.RISKY, where, "idempotent flipped", "" + b.idempotent(), "" + a.idempotent());
    }
    if (b.openWorld() != a.openWorld()) {
      add(Severity.RISKY, where, "openWorld flipped", "" + b.openWorld(), "" + a.openWorld());
    }
    if (b.verb() != a.verb()) {
      add(Severity.RISKY, where, "verb changed", b.verb().name(), a.verb().name());
    }
    inputs(where, b, a);
    if (b.result() != a.result()) {
      if (a.result() == ResultShape.PAGE && collection(b.result())) {
        // The items and truncation fields stay; a next cursor is only added.
        add(Severity.SAFE, where, "paging added", b.result().name(), a.result().name());
      } else if (b.result() == ResultShape.PAGE) {
        add(Severity.BREAKING, where, "paging removed (an agent's next cursor stops working)",
            b.result().name(), a.result().name());
      } else {
        add(Severity.BREAKING, where, "result shape changed", b.result().name(), a.result().name());
      }
    }
    if (!Objects.equals(b.resultSchema(), a.resultSchema())) {
      add(Severity.BREAKING, where, "result type changed", schemaOrNone(b.resultSchema()),
          schemaOrNone(a.resultSchema()));
    }
    presenter(where, b.presenter(), a.presenter());
    limits(where, b.limits(), a.limits());
    if (!b.middleware().equals(a.middleware())) {
      add(Severity.RISKY, where, "middleware changed", b.middleware().toString(), a.middleware().toString());
    }
    if (b.cache() != a.cache()) {
      add(Severity.RISKY, where, "cache control changed", b.cache().name(), a.cache().name());
    }
    if (!b.invalidates().equals(a.invalidates())) {
      add(Severity.RISKY, where, "invalidation changed", b.invalidates().toString(), a.invalidates().toString());
    }
    CallDrift.scopes(this, where, b.scopes(), a.scopes());
    if (b.customValidation() != a.customValidation()) {
      add(Severity.RISKY, where, "custom validation (@Constraint/@Valid) changed",
          "" + b.customValidation(), "" + a.customValidation());
    }
    redaction(where, b.redaction(), a.redaction());
    CallDrift.task(this, where, b.task(), a.task());
    CallDrift.taskInputFirst(this, where, b.taskInputFirst(), a.taskInputFirst());
    CallDrift.serialization(this, where, b, a);
    CallDrift.proxy(this, where, b.proxy(), a.proxy());
    CallDrift.proxyPolicy(this, where, b, a);
  }

  private static boolean collection(ResultShape shape) {
    return shape == ResultShape.COLLECTION || shape == ResultShape.ARRAY
        || shape == ResultShape.ITERABLE || shape == ResultShape.STREAM;
  }

  private void redaction(String where, RedactionContract b, RedactionContract a) {
    if (Objects.equals(b, a)) {
      return;
    }
    if (a == null) {
      add(Severity.BREAKING, where, "redaction removed", b.summary(), "none");
    } else if (b == null) {
      add(Severity.SAFE, where, "redaction added", "none", a.summary());
    } else {
      List<String> lost = b.loosenedIn(a);
      if (lost.isEmpty()) {
        add(Severity.SAFE, where, "redaction tightened", b.summary(), a.summary());
      } else {
        add(Severity.RISKY, where, "redaction loosened: " + String.join(", ", lost),
            b.summary(), a.summary());
      }
    }
  }

  private void inputs(String where, ActionContract ba, ActionContract aa) {
    for (String name : union(ba.inputs(), aa.inputs())) {
      InputField b = ba.inputs().get(name);
      InputField a = aa.inputs().get(name);
      if (a == null && name.equals(SELECT)) {
        // A mutation or neutral action offers _select only when its verb says select = true, so
        // an action that stopped offering it is named with the way to keep it.
        add(Severity.BREAKING, where, "field selection removed: " + SELECT
            + " (an agent that narrows its results now gets a validation error"
            + (aa.verb() == Verb.QUERY ? ")" : "; keep it with select = true on the verb)"));
        continue;
      }
      if (a == null) {
        add(Severity.SAFE, where, (b.required() ? "required" : "optional") + " field removed: " + name);
        continue;
      }
      if (b == null && name.equals(SELECT)) {
        add(Severity.SAFE, where, "field selection added: " + SELECT);
        continue;
      }
      if (b == null) {
        add(a.required() ? Severity.BREAKING : Severity.SAFE, where,
            (a.required() ? "required" : "optional") + " field added: " + name);
        continue;
      }
      if (!b.required() && a.required()) {
        add(Severity.BREAKING, where, "required field added: " + name + " (was optional)");
      } else if (b.required() && !a.required()) {
        add(Severity.SAFE, where, "required field removed: " + name + " (now optional)");
      }
      if (b.profile() != null || a.profile() != null) {
        ProfileDrift.compare(name, b, a, (s, what, before, after) -> add(s, where, what, before, after));
      } else if (!Canonical.typeOnly(b.schema()).equals(Canonical.typeOnly(a.schema()))) {
        add(Severity.BREAKING, where, "input type changed: " + name,
            Canonical.compact(b.schema()), Canonical.compact(a.schema()));
      } else if (!b.schema().equals(a.schema())) {
        add(Severity.RISKY, where, "input constraints changed: " + name,
            Canonical.compact(b.schema()), Canonical.compact(a.schema()));
      }
      descriptions(where, "input", b.descriptions(), a.descriptions(), List.of(), List.of(), false);
    }
  }

  private void presenter(String where, PresenterContract b, PresenterContract a) {
    String bName = b == null ? null : b.name();
    String aName = a == null ? null : a.name();
    if (!Objects.equals(bName, aName)) {
      add(Severity.RISKY, where, "presenter changed", orNone(bName), orNone(aName));
    }
    String bEgress = b == null ? null : b.egress();
    String aEgress = a == null ? null : a.egress();
    if (!Objects.equals(bEgress, aEgress)) {
      List<String> bf = b == null ? List.of() : b.fields();
      List<String> af = a == null ? List.of() : a.fields();
      if (bf.equals(af)) {
        add(Severity.BREAKING, where, "egress fields changed (shape of " + af + ")",
            orNone(bEgress), orNone(aEgress));
      } else {
        add(Severity.BREAKING, where, "egress fields changed", bf.toString(), af.toString());
      }
    }
    List<String> bLines = b == null ? List.of() : b.rules();
    List<String> aLines = a == null ? List.of() : a.rules();
    boolean rulesChanged = !bLines.equals(aLines);
    if (rulesChanged) {
      List<String> removed = bLines.stream().filter(l -> !aLines.contains(l)).map(Differ::q).toList();
      List<String> added = aLines.stream().filter(l -> !bLines.contains(l)).map(Differ::q).toList();
      if (removed.isEmpty() && added.isEmpty()) {
        add(Severity.BREAKING, where, "rules changed (order)", bLines.toString(), aLines.toString());
      } else {
        add(Severity.BREAKING, where, "rules changed", removed.toString(), added.toString());
      }
    }
    boolean bDyn = b != null && b.dynamicRules();
    boolean aDyn = a != null && a.dynamicRules();
    if (bDyn != aDyn) {
      add(Severity.BREAKING, where,
          (aDyn ? "dynamic rules added" : "dynamic rules removed") + " (@Rules method)");
    }
    List<String> bUi = b == null ? List.of() : b.ui();
    List<String> aUi = a == null ? List.of() : a.ui();
    List<String> uiRemoved = bUi.stream().filter(m -> !aUi.contains(m)).toList();
    List<String> uiAdded = aUi.stream().filter(m -> !bUi.contains(m)).toList();
    if (!uiRemoved.isEmpty()) {
      add(Severity.RISKY, where, "UI blocks removed (@Ui " + String.join(", ", uiRemoved) + ")");
    }
    if (!uiAdded.isEmpty()) {
      add(Severity.SAFE, where, "UI blocks added (@Ui " + String.join(", ", uiAdded) + ")");
    }
    descriptions(where, "view field", b == null ? Map.of() : b.fieldDescriptions(),
        a == null ? Map.of() : a.fieldDescriptions(), bLines, aLines, rulesChanged);
  }

  private void descriptions(String where, String kind, Map<String, String> b, Map<String, String> a,
      List<String> bRules, List<String> aRules, boolean rulesChanged) {
    for (String path : union(b, a)) {
      String bt = b.get(path);
      String at = a.get(path);
      if (Objects.equals(bt, at)) {
        continue;
      }
      if (rulesChanged && (isRuleText(bt, bRules) || isRuleText(at, aRules))) {
        continue; // the rules change (BREAKING) already reports this text; the rules win
      }
      add(Severity.COSMETIC, where, "description of " + kind + " " + path + " changed",
          orNone(q(bt)), orNone(q(at)));
    }
  }

  private static boolean isRuleText(String text, List<String> rules) {
    return text != null && rules.stream().anyMatch(l -> l.endsWith(": " + text));
  }

  private void limits(String where, Map<String, Long> b, Map<String, Long> a) {
    for (String name : union(b, a)) {
      Long bv = b.get(name);
      Long av = a.get(name);
      if (av == null) {
        add(Severity.RISKY, where, "limit removed: " + name, bv.toString(), "none");
      } else if (bv == null) {
        add(Severity.SAFE, where, "limit added: " + name, "none", av.toString());
      } else if (av < bv) {
        add(Severity.SAFE, where, "limit tightened: " + name, bv.toString(), av.toString());
      } else if (av > bv) {
        add(Severity.RISKY, where, "limit loosened: " + name, bv.toString(), av.toString());
      }
    }
  }

  private static TreeSet<String> union(Map<String, ?> a, Map<String, ?> b) {
    TreeSet<String> names = new TreeSet<>(a.keySet());
    names.addAll(b.keySet());
    return names;
  }

  /** The icons' sources in order, as a change line shows them ({@code none} for no icons). */
  private static String icons(List<IconContract> icons) {
    if (icons.isEmpty()) {
      return "none";
    }
    List<String> out = new ArrayList<>();
    for (IconContract i : icons) {
      out.add(q(i.src().length() <= 60 ? i.src() : i.src().substring(0, 57) + "..."));
    }
    return String.join(", ", out);
  }

  static String q(String text) {
    return text == null ? null : Json.write(text);
  }

  private static String schemaOrNone(Object schema) {
    return schema == null ? "none" : Canonical.compact(schema);
  }

  private static String orNone(String value) {
    return value == null ? "none" : value;
  }
}
