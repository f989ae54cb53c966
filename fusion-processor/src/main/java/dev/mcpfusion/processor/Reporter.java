package dev.mcpfusion.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * Prints {@link Diagnostic}s in one format, {@code [fusion/Code] what is wrong. How to fix it.},
 * anchored to the element (and, where known, the annotation and value) at fault. Nothing else in
 * the processor talks to the {@link Messager}. Remembers which types failed validation so a step
 * does not generate code that needs their output.
 */
final class Reporter {
  private final Messager messager;
  private final java.util.Set<String> broken = new java.util.HashSet<>();
  private int errors;

  Reporter(Messager messager) {
    this.messager = messager;
  }

  /** How many errors were reported so far; a step compares it before and after validating a type. */
  int errorCount() {
    return errors;
  }

  /** Remembers that a type failed validation, so nothing is generated that needs its output. */
  void markBroken(TypeElement type) {
    broken.add(type.getQualifiedName().toString());
  }

  /** Whether a type failed validation (its generated class does not exist). */
  boolean isBroken(TypeElement type) {
    return broken.contains(type.getQualifiedName().toString());
  }

  /** Reports {@code d} on {@code element} ({@code null}: on no element, for an option). */
  void report(Diagnostic d, Element element, Object... args) {
    print(d.kind().javac, d, element, null, null, args);
  }

  /** Reports {@code d} on an annotation ({@code value}, if not {@code null}, narrows it). */
  void reportOn(Diagnostic d, Element element, AnnotationMirror mirror, AnnotationValue value,
      Object... args) {
    print(d.kind().javac, d, element, mirror, value, args);
  }

  /** Reports {@code d} at a kind a user option chose instead of its own. */
  void reportAs(javax.tools.Diagnostic.Kind kind, Diagnostic d, Element element,
      AnnotationMirror mirror, Object... args) {
    print(kind, d, element, mirror, null, args);
  }

  private void print(javax.tools.Diagnostic.Kind kind, Diagnostic d, Element element,
      AnnotationMirror mirror, AnnotationValue value, Object[] args) {
    String text = d.text(args);
    if (kind == javax.tools.Diagnostic.Kind.ERROR) {
      errors++;
    }
    if (element == null) {
      messager.printMessage(kind, text);
    } else if (mirror != null && value != null) {
      messager.printMessage(kind, text, element, mirror, value);
    } else if (mirror != null) {
      messager.printMessage(kind, text, element, mirror);
    } else {
      messager.printMessage(kind, text, element);
    }
  }
}
