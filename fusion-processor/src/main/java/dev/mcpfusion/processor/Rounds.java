package dev.mcpfusion.processor;

import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/** Round bookkeeping shared by the steps. */
final class Rounds {
  private Rounds() {}

  /**
   * The qualified names of the types a step handles this round: those it deferred earlier (the
   * set is emptied) and those annotated with {@code annotation} now, sorted so output never
   * depends on the order javac reports them in.
   */
  static Set<String> typesToProcess(Elements elements, RoundEnvironment round, String annotation,
      Set<String> deferred) {
    Set<String> names = new TreeSet<>(deferred);
    deferred.clear();
    TypeElement type = elements.getTypeElement(annotation);
    if (type != null) {
      for (Element e : round.getElementsAnnotatedWith(type)) {
        if (e instanceof TypeElement) {
          names.add(((TypeElement) e).getQualifiedName().toString());
        }
      }
    }
    return names;
  }
}
