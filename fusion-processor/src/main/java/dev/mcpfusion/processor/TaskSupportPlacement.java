package dev.mcpfusion.processor;

import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Reports {@code @TaskSupport} on a method that is not a verb ({@code @Query}, {@code @Mutation},
 * {@code @Action}) of a {@code @Router}: only an action's calls can run as tasks, so anywhere else
 * it would silently do nothing.
 */
final class TaskSupportPlacement implements FusionProcessor.Step {
  private final Elements elements;
  private final Reporter reporter;

  TaskSupportPlacement(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.reporter = reporter;
  }

  @Override
  public void process(RoundEnvironment round) {
    TypeElement annotation = elements.getTypeElement(Props.ANN + "TaskSupport");
    if (annotation == null) {
      return;
    }
    for (Element e : round.getElementsAnnotatedWith(annotation)) {
      if (e.getKind() != ElementKind.METHOD) {
        continue;
      }
      Element owner = e.getEnclosingElement();
      boolean verb = Mirrors.find(e, Props.ANN + "Query") != null
          || Mirrors.find(e, Props.ANN + "Mutation") != null
          || Mirrors.find(e, Props.ANN + "Action") != null;
      boolean router = owner instanceof TypeElement type && Mirrors.find(type, Props.ANN + "Router") != null;
      if (!verb || !router) {
        reporter.report(Diagnostic.TASK_SUPPORT_WITHOUT_VERB, e,
            owner instanceof TypeElement type ? Names.display(type) : owner.getSimpleName(),
            e.getSimpleName());
      }
    }
  }
}
