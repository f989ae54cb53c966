package dev.mcpfusion.processor;

import java.util.List;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Reports {@code @Ui}, {@code @Suggest} and method-level {@code @Rules} outside a {@code @Presenter}
 * view: only a view's generated presenter calls them, so anywhere else they would silently do
 * nothing.
 */
final class ViewMethodPlacement implements FusionProcessor.Step {
  private static final List<String> ANNOTATIONS = List.of("Ui", "Suggest", "Rules");

  private final Elements elements;
  private final Reporter reporter;

  ViewMethodPlacement(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.reporter = reporter;
  }

  @Override
  public void process(RoundEnvironment round) {
    for (String simple : ANNOTATIONS) {
      TypeElement annotation = elements.getTypeElement(Props.ANN + simple);
      if (annotation == null) {
        continue;
      }
      for (Element e : round.getElementsAnnotatedWith(annotation)) {
        if (e.getKind() != ElementKind.METHOD) {
          continue;
        }
        Element owner = e.getEnclosingElement();
        if (owner instanceof TypeElement type && Mirrors.find(type, Views.PRESENTER) == null) {
          reporter.report(Diagnostic.MISPLACED_VIEW_METHOD, e, Names.display(type),
              e.getSimpleName(), "@" + simple, type.getSimpleName());
        }
      }
    }
  }
}
