package dev.mcpfusion.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Reports diagnostics in one format: {@code [fusion/Code] what is wrong. How to fix it.}, anchored
 * to the element (and, where known, the annotation and value) at fault. Remembers whether an error
 * was reported for an element so a step can skip generating from a broken declaration.
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
  void markBroken(javax.lang.model.element.TypeElement type) {
    broken.add(type.getQualifiedName().toString());
  }

  /** Whether a type failed validation (its generated class does not exist). */
  boolean isBroken(javax.lang.model.element.TypeElement type) {
    return broken.contains(type.getQualifiedName().toString());
  }

  /** Reports an error. {@code message} already carries the problem and the fix. */
  void error(String code, Element element, String message) {
    print(Diagnostic.Kind.ERROR, code, element, null, null, message);
  }

  /** Reports an error on an annotation value. */
  void error(String code, Element element, AnnotationMirror mirror, AnnotationValue value,
      String message) {
    print(Diagnostic.Kind.ERROR, code, element, mirror, value, message);
  }

  /** Reports a warning on an annotation. */
  void warning(String code, Element element, AnnotationMirror mirror, String message) {
    print(Diagnostic.Kind.WARNING, code, element, mirror, null, message);
  }

  /** Reports a warning. */
  void warning(String code, Element element, String message) {
    print(Diagnostic.Kind.WARNING, code, element, null, null, message);
  }

  /** Reports at the given kind (for diagnostics whose severity is a user option). */
  void report(Diagnostic.Kind kind, String code, Element element, String message) {
    print(kind, code, element, null, null, message);
  }

  /** Reports at the given kind on an annotation. */
  void report(Diagnostic.Kind kind, String code, Element element, AnnotationMirror mirror,
      String message) {
    print(kind, code, element, mirror, null, message);
  }

  /** The text of a diagnostic: {@code [fusion/Code] message}. */
  static String format(String code, String message) {
    return "[fusion/" + code + "] " + message;
  }

  private void print(Diagnostic.Kind kind, String code, Element element, AnnotationMirror mirror,
      AnnotationValue value, String message) {
    String text = format(code, message);
    if (kind == Diagnostic.Kind.ERROR) {
      errors++;
    }
    if (mirror != null && value != null) {
      messager.printMessage(kind, text, element, mirror, value);
    } else if (mirror != null) {
      messager.printMessage(kind, text, element, mirror);
    } else {
      messager.printMessage(kind, text, element);
    }
  }
}
