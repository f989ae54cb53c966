package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The {@code @Model}, {@code @Hidden} and {@code @Guarded} family: a model is a class or record
 * whose properties a presenter reads; a {@code @Hidden} or {@code @Guarded} marker on a model
 * property is only meaningful on something a presenter or an action can reach.
 */
final class ModelStep implements FusionProcessor.Step {
  private final Elements elements;
  private final Types types;
  private final Reporter reporter;

  ModelStep(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.reporter = reporter;
  }

  /** The types annotated {@code @Model} in {@code round}, each once, in the order javac gives them. */
  static List<TypeElement> models(Elements elements, RoundEnvironment round) {
    List<TypeElement> models = new ArrayList<>();
    TypeElement model = elements.getTypeElement(Props.ANN + "Model");
    if (model == null) {
      return models;
    }
    Set<String> seen = new TreeSet<>();
    for (Element e : round.getElementsAnnotatedWith(model)) {
      if (e instanceof TypeElement type && seen.add(type.getQualifiedName().toString())) {
        models.add(type);
      }
    }
    return models;
  }

  @Override
  public void process(RoundEnvironment round) {
    for (TypeElement type : models(elements, round)) {
      if (type.getKind() != ElementKind.CLASS && type.getKind() != ElementKind.RECORD) {
        String kind = type.getKind().toString().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        reporter.report(Diagnostic.INVALID_MODEL, type, Names.display(type),
            ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind);
        continue;
      }
      if (Props.of(type, types).isEmpty()) {
        reporter.report(Diagnostic.EMPTY_MODEL, type, Names.display(type));
      }
    }
  }
}
