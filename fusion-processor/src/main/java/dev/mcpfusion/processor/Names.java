package dev.mcpfusion.processor;

import dev.mcpfusion.annotation.internal.NearNames;
import java.util.Collection;
import java.util.regex.Pattern;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;

/** Name rules and "Did you mean …?" suggestions. */
final class Names {
  static final Pattern ROUTER_OR_ACTION = Pattern.compile("[a-z][a-z0-9_]*");
  static final Pattern TOOL = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

  private Names() {}

  /** {@code listInvoices} → {@code list_invoices}; {@code getHTTPStatus} → {@code get_http_status}. */
  static String snake(String camel) {
    StringBuilder out = new StringBuilder(camel.length() + 8);
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c)) {
        boolean prevLowerOrDigit = i > 0
            && (Character.isLowerCase(camel.charAt(i - 1)) || Character.isDigit(camel.charAt(i - 1)));
        boolean acronymEnd = i > 0 && Character.isUpperCase(camel.charAt(i - 1))
            && i + 1 < camel.length() && Character.isLowerCase(camel.charAt(i + 1));
        if (prevLowerOrDigit || acronymEnd) {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** JavaBeans decapitalisation: {@code Total} → {@code total}, {@code URL} → {@code URL}. */
  static String decapitalize(String name) {
    if (name.isEmpty()) {
      return name;
    }
    if (name.length() > 1 && Character.isUpperCase(name.charAt(0))
        && Character.isUpperCase(name.charAt(1))) {
      return name;
    }
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

  /** The nearest candidate within a small edit distance ({@link NearNames}), or {@code null}. */
  static String nearest(String name, Collection<String> candidates) {
    return NearNames.nearest(name, candidates, NearNames.tolerance(name));
  }

  /** {@code " Did you mean 'x'?"} or the empty string. */
  static String didYouMean(String name, Collection<String> candidates) {
    String near = nearest(name, candidates);
    return near == null ? "" : " Did you mean '" + near + "'?";
  }

  /** The simple names of a type and its enclosing types joined by {@code _}: {@code Outer_Inner}. */
  static String flatName(TypeElement type) {
    StringBuilder sb = new StringBuilder(type.getSimpleName());
    Element e = type.getEnclosingElement();
    while (e != null && (e.getKind().isClass() || e.getKind().isInterface()
        || e.getKind() == ElementKind.RECORD || e.getKind() == ElementKind.ENUM)) {
      sb.insert(0, e.getSimpleName() + "_");
      e = e.getEnclosingElement();
    }
    return sb.toString();
  }

  /** A readable name for messages: {@code Outer.Inner}. */
  static String display(TypeElement type) {
    StringBuilder sb = new StringBuilder(type.getSimpleName());
    Element e = type.getEnclosingElement();
    while (e != null && (e.getKind().isClass() || e.getKind().isInterface())) {
      sb.insert(0, e.getSimpleName() + ".");
      e = e.getEnclosingElement();
    }
    return sb.toString();
  }
}
