package dev.mcpfusion.processor;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * The MCP Fusion annotation processor: validates {@code @Model}, {@code @Presenter} and
 * {@code @Router} declarations and generates {@code V_Presenter} and {@code X_Fusion} classes, and
 * {@code X_Features} for the {@code @Prompt}, {@code @Resource} and {@code @Complete} methods of a class.
 *
 * <p>It runs one step per annotation family, in order: models, presenters, routers,
 * then prompts, resources and completions. Every step
 * validates first and generates only from a clean model; an error in one type never stops the
 * others. It never claims annotations, and it reads every annotation through mirrors and qualified
 * names, so the processor path needs no runtime jar.
 */
@AutoService(Processor.class)
public final class FusionProcessor extends AbstractProcessor {
  /** The option that sets the severity of {@code [fusion/UnmappedProperty]}. */
  public static final String UNMAPPED_PROPERTY_OPTION = "fusion.unmappedProperty";

  static final String PKG = "dev.mcpfusion.annotation.";

  private List<Step> steps;

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    Reporter reporter = new Reporter(env.getMessager());
    // References are collected first in each round, so a router or presenter written in that
    // round can carry those its compilation cannot check (ReferenceList) for build() to check.
    ReferenceStep references = new ReferenceStep(env, reporter);
    steps = List.of(references, new ModelStep(env, reporter), new FillableStep(env, reporter),
        new PresenterStep(env, reporter, references), new ViewMethodPlacement(env, reporter), new TaskSupportPlacement(env, reporter),
        new RouterStep(env, reporter, references), new FeatureStep(env, reporter),
        new DetailStep(env, reporter));
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(PKG + "Model", PKG + "Presenter", PKG + "Router", PKG + "Query",
        PKG + "Mutation", PKG + "Action", PKG + "Hidden", PKG + "Guarded", PKG + "Describe",
        PKG + "Rules", PKG + "Suggest", PKG + "Ui", PKG + "Use", PKG + "Context", PKG + "Invalidates",
        PKG + "CacheControl", PKG + "Prompt", PKG + "Resource", PKG + "Complete",
        PKG + "Fillable", PKG + "Input", PKG + "TaskSupport");
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(UNMAPPED_PROPERTY_OPTION);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    for (Step step : steps) {
      step.process(round);
    }
    return false;
  }

  /** One annotation family's validation and generation. */
  interface Step {
    /** Validates and generates for the elements of this round (and any deferred from earlier ones). */
    void process(RoundEnvironment round);
  }
}
