package dev.mcpfusion.processor;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The round handling of a step whose unit is an annotated type, in the shape of auto-common's
 * {@code BasicAnnotationProcessor}: a type that mentions a type not generated yet is deferred to
 * the next round; one still unresolved when processing is over is reported
 * ({@code [fusion/UnresolvedType]}) instead of being dropped; every other type is validated into
 * an immutable model and written only if its own validation reported no error. An error, or a
 * processor bug, in one type never stops the others.
 *
 * <p>Every step whose unit is a type runs on this loop; a step plugs in what it finds in a round
 * ({@link #collect}), what a type still lacks ({@link #missing}), and how it validates and writes.
 *
 * @param <M> the validated model of one type
 */
abstract class TypeStep<M> implements FusionProcessor.Step {
  private final Elements elements;
  private final Reporter reporter;
  private final String annotation;
  private final Set<String> deferred = new TreeSet<>();
  private final Set<String> done = new HashSet<>();

  TypeStep(Elements elements, Reporter reporter, String annotation) {
    this.elements = elements;
    this.reporter = reporter;
    this.annotation = annotation;
  }

  /** What the type mentions that does not exist yet (as written), or {@code null}. */
  abstract String missing(TypeElement type);

  /** The class this step generates for the type (named in the unresolved-type report). */
  abstract String generatedName(TypeElement type);

  /**
   * Validates the type, reporting every problem; returns its model, or {@code null} when it
   * cannot be built at all. A model is written only if no error was reported for the type.
   */
  abstract M validate(TypeElement type);

  /** Whether the model depends on a type whose own generation failed (its class will not exist). */
  boolean dependsOnBroken(M model) {
    return false;
  }

  /** Writes the generated class of a clean model. */
  abstract void write(M model);

  /** Records a type whose class will not be generated, for the steps that depend on it. */
  void failed(TypeElement type) {
    reporter.markBroken(type);
  }

  @Override
  public final void process(RoundEnvironment round) {
    for (String name : typesToProcess(round)) {
      TypeElement type = elements.getTypeElement(name);
      if (type == null || done.contains(name)) {
        continue;
      }
      String missing = missing(type);
      if (missing != null) {
        if (round.processingOver()) {
          done.add(name);
          failed(type);
          reporter.report(Diagnostic.UNRESOLVED_TYPE, type, Names.display(type), missing,
              generatedName(type));
        } else {
          deferred.add(name);
        }
        continue;
      }
      done.add(name);
      int before = reporter.errorCount();
      try {
        M model = validate(type);
        if (model != null && reporter.errorCount() == before && !dependsOnBroken(model)) {
          write(model);
        } else {
          failed(type);
        }
      } catch (RuntimeException e) {
        failed(type);
        reporter.report(Diagnostic.PROCESSOR_FAILURE, type, name, e);
      }
    }
  }

  /**
   * The qualified names of the types to handle this round: those deferred earlier and those
   * annotated now, sorted so output never depends on the order javac reports them in.
   */
  private Set<String> typesToProcess(RoundEnvironment round) {
    Set<String> names = new TreeSet<>(deferred);
    deferred.clear();
    collect(round, names);
    return names;
  }

  /**
   * Adds the qualified names of the types this step handles that {@code round} brings: by
   * default, those annotated with the step's annotation.
   */
  void collect(RoundEnvironment round, Set<String> names) {
    TypeElement type = elements.getTypeElement(annotation);
    if (type != null) {
      for (Element e : round.getElementsAnnotatedWith(type)) {
        if (e instanceof TypeElement) {
          names.add(((TypeElement) e).getQualifiedName().toString());
        }
      }
    }
  }
}
