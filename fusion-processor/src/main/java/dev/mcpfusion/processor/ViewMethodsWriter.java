package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the data-dependent part of a presenter from its {@link ViewMethods}: the per-view
 * {@code dynamicRules} and {@code suggestions}, and {@code rulesFor}, {@code suggestionsFor} and
 * {@code uiBlocksFor}, which take every view an answer shows so that an item-level method runs
 * once per distinct view and a collection-level one once.
 */
final class ViewMethodsWriter {
  private static final ClassName SUGGESTION = ClassName.get("dev.mcpfusion.core", "Suggestion");
  private static final ClassName UI_BLOCK = ClassName.get("dev.mcpfusion.core", "UiBlock");
  private static final TypeName LIST_OF_STRING = ParameterizedTypeName.get(List.class, String.class);
  private static final TypeName LIST_OF_SUGGESTION =
      ParameterizedTypeName.get(ClassName.get(List.class), SUGGESTION);
  private static final TypeName LIST_OF_UI =
      ParameterizedTypeName.get(ClassName.get(List.class), UI_BLOCK);

  private ViewMethodsWriter() {}

  /** Adds the five methods to the presenter of {@code view}. */
  static void addTo(TypeSpec.Builder type, ClassName view, ViewMethods m) {
    TypeName shownType = ParameterizedTypeName.get(ClassName.get(List.class), view);
    ClassName binding = Sources.spi("PresenterBinding");

    MethodSpec.Builder dynamic = PresenterWriter.override("dynamicRules", LIST_OF_STRING)
        .addParameter(view, "view");
    ViewMethods.Method rules = m.itemRules();
    if (rules == null) {
      dynamic.addStatement("return $T.of()", List.class);
    } else if (rules.returnsString()) {
      dynamic.addStatement("String rule = $T.$N(view)", view, rules.name());
      dynamic.addStatement("return rule == null || rule.isEmpty() ? $T.of() : $T.of(rule)",
          List.class, List.class);
    } else {
      dynamic.addStatement("$T rules = $T.$N(view)", LIST_OF_STRING, view, rules.name());
      dynamic.addStatement("return rules == null ? $T.of() : rules", List.class);
    }
    type.addMethod(dynamic.build());

    MethodSpec.Builder suggestions = PresenterWriter.override("suggestions", LIST_OF_SUGGESTION)
        .addParameter(view, "view");
    if (m.itemSuggest() == null) {
      suggestions.addStatement("return $T.of()", List.class);
    } else {
      suggestions.addStatement("$T suggested = $T.$N(view)", LIST_OF_SUGGESTION, view,
          m.itemSuggest().name());
      suggestions.addStatement("return suggested == null ? $T.of() : suggested", List.class);
    }
    type.addMethod(suggestions.build());

    MethodSpec.Builder rulesFor = PresenterWriter.override("rulesFor", LIST_OF_STRING)
        .addParameter(shownType, "shown");
    if (m.nestedRules().isEmpty() && m.itemRules() == null && m.listRules() == null) {
      rulesFor.addStatement("return $T.of()", List.class);
    } else {
      rulesFor.addStatement("$T out = new $T<>()", LIST_OF_STRING, ArrayList.class);
      int i = 0;
      for (Views.Component c : m.nestedRules()) {
        nested(rulesFor, view, c, "n" + i++);
      }
      if (m.itemRules() != null) {
        rulesFor.beginControlFlow("for ($T v : $T.distinct(shown))", view, binding)
            .addStatement("out.addAll(dynamicRules(v))").endControlFlow();
      }
      addList(rulesFor, view, m.listRules(), m.listRules() != null && m.listRules().returnsString()
          ? ClassName.get(String.class) : LIST_OF_STRING);
      rulesFor.addStatement("return out");
    }
    type.addMethod(rulesFor.build());

    MethodSpec.Builder suggestionsFor = PresenterWriter.override("suggestionsFor",
        LIST_OF_SUGGESTION).addParameter(shownType, "shown");
    if (m.itemSuggest() == null && m.listSuggest() == null) {
      suggestionsFor.addStatement("return $T.of()", List.class);
    } else {
      suggestionsFor.addStatement("$T out = new $T<>()", LIST_OF_SUGGESTION, ArrayList.class);
      if (m.itemSuggest() != null) {
        suggestionsFor.beginControlFlow("for ($T v : $T.distinct(shown))", view, binding)
            .addStatement("out.addAll(suggestions(v))").endControlFlow();
      }
      addList(suggestionsFor, view, m.listSuggest(), LIST_OF_SUGGESTION);
      suggestionsFor.addStatement("return out");
    }
    type.addMethod(suggestionsFor.build());

    MethodSpec.Builder ui = PresenterWriter.override("uiBlocksFor", LIST_OF_UI)
        .addParameter(shownType, "shown");
    if (m.ui().isEmpty()) {
      ui.addStatement("return $T.of()", List.class);
    } else {
      ui.addStatement("$T out = new $T<>()", LIST_OF_UI, ArrayList.class);
      if (m.ui().stream().anyMatch(u -> !u.list())) {
        ui.addStatement("$T<$T> distinct = $T.distinct(shown)", java.util.Collection.class, view,
            binding);
      }
      int i = 0;
      for (ViewMethods.Method u : m.ui()) {
        String b = "b" + i++;
        if (u.list()) {
          ui.addStatement("$T $N = $T.$N(shown)", UI_BLOCK, b, view, u.name());
          ui.beginControlFlow("if ($N != null)", b).addStatement("out.add($N)", b).endControlFlow();
        } else {
          ui.beginControlFlow("for ($T v : distinct)", view);
          ui.addStatement("$T $N = $T.$N(v)", UI_BLOCK, b, view, u.name());
          ui.beginControlFlow("if ($N != null)", b).addStatement("out.add($N)", b).endControlFlow();
          ui.endControlFlow();
        }
      }
      ui.addStatement("return out");
    }
    type.addMethod(ui.build());
  }

  /** Calls the collection-level method, if any, and adds what it returns to {@code out}. */
  private static void addList(MethodSpec.Builder b, ClassName view, ViewMethods.Method list,
      TypeName returns) {
    if (list == null) {
      return;
    }
    b.addStatement("$T all = $T.$N(shown)", returns, view, list.name());
    if (list.returnsString()) {
      b.beginControlFlow("if (all != null && !all.isEmpty())").addStatement("out.add(all)");
    } else {
      b.beginControlFlow("if (all != null)").addStatement("out.addAll(all)");
    }
    b.endControlFlow();
  }

  /**
   * Gathers the nested views of component {@code c} from every shown view and adds their rules:
   * the nested presenter deduplicates and runs its own methods once on them.
   */
  private static void nested(MethodSpec.Builder b, ClassName view, Views.Component c, String local) {
    Views.Out o = c.out;
    Views.Out element = o.element != null ? o.element : o;
    ClassName nestedView = ClassName.get(element.type);
    b.addStatement("$T $N = new $T<>()", ParameterizedTypeName.get(ClassName.get(List.class),
        nestedView), local, ArrayList.class);
    b.beginControlFlow("for ($T v : shown)", view);
    b.addStatement("var c = v.$N()", c.view.name);
    switch (o.kind) {
      case LIST:
      case SET:
        b.beginControlFlow("if (c != null)").beginControlFlow("for ($T e : c)", nestedView)
            .beginControlFlow("if (e != null)").addStatement("$N.add(e)", local)
            .endControlFlow().endControlFlow().endControlFlow();
        break;
      case OPTIONAL:
        b.beginControlFlow("if (c != null && c.isPresent())")
            .addStatement("$N.add(c.get())", local).endControlFlow();
        break;
      default:
        b.beginControlFlow("if (c != null)").addStatement("$N.add(c)", local).endControlFlow();
    }
    b.endControlFlow();
    b.beginControlFlow("if (!$N.isEmpty())", local)
        .addStatement("out.addAll($T.INSTANCE.rulesFor($N))",
            PresenterStep.presenterName(element.type), local)
        .endControlFlow();
  }
}
