package dev.mcpfusion.processor;

import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * {@code @Fillable} on the properties of a {@code @Model}: a property the agent must never see
 * ({@code @Hidden}) or never send ({@code @Guarded}) cannot be fillable in any profile. The
 * {@code @Input(profile)} parameters that use the profiles are checked with their action
 * ({@link Fillables}).
 */
final class FillableStep implements FusionProcessor.Step {
  private final Elements elements;
  private final Types types;
  private final Reporter reporter;

  FillableStep(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.reporter = reporter;
  }

  @Override
  public void process(RoundEnvironment round) {
    for (TypeElement type : ModelStep.models(elements, round)) {
      if (type.getKind() != ElementKind.CLASS && type.getKind() != ElementKind.RECORD) {
        continue;
      }
      for (Props.Prop p : Props.of(type, types)) {
        AnnotationMirror fillable = p.annotation(Fillables.FILLABLE);
        if (fillable == null || !(p.has("Guarded") || p.has("Hidden"))) {
          continue;
        }
        reporter.report(Diagnostic.FILLABLE_NOT_ACCEPTED, p.anchor, Names.display(type), p.name,
            p.has("Guarded") ? "@Guarded" : "@Hidden",
            "\"" + String.join("\", \"", Mirrors.strings(elements, fillable, "value")) + "\"");
      }
    }
  }
}
