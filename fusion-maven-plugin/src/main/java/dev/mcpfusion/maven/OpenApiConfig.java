package dev.mcpfusion.maven;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What the {@code openapi} goal is told: the package of the generated sources, the router name
 * (its class is the name in PascalCase + {@code Tools}), the properties to hide beyond the
 * secret-like and write-only ones, and the operations to leave out.
 */
record OpenApiConfig(String packageName, String routerName, List<String> hiddenFields,
    List<String> excludeOperations) {
  private static final Pattern PACKAGE = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");
  private static final Pattern ROUTER = Pattern.compile("[a-z][a-z0-9_]*");

  OpenApiConfig {
    hiddenFields = List.copyOf(hiddenFields);
    excludeOperations = List.copyOf(excludeOperations);
  }

  /** The generated router's simple class name. */
  String routerClass() {
    return JavaText.pascal(routerName) + "Tools";
  }

  /** Every problem of this configuration, one sentence each with its fix; empty when it is usable. */
  List<String> problems() {
    java.util.List<String> out = new java.util.ArrayList<>();
    if (packageName == null || !PACKAGE.matcher(packageName).matches()
        || java.util.Arrays.stream(packageName.split("\\.")).anyMatch(s -> !JavaText.isIdentifier(s))) {
      out.add("packageName \"" + packageName + "\" is not a Java package name: write lower-case"
          + " identifiers separated by dots, e.g. <packageName>com.acme.petstore</packageName>.");
    }
    if (routerName == null || !ROUTER.matcher(routerName).matches()) {
      out.add("routerName \"" + routerName + "\" is not a router name ([a-z][a-z0-9_]*): it prefixes"
          + " every tool, e.g. <routerName>petstore</routerName>.");
    }
    for (String h : hiddenFields) {
      if (h == null || !h.matches("([A-Za-z_][A-Za-z0-9_]*\\.)?[A-Za-z_][A-Za-z0-9_]*")) {
        out.add("hiddenFields entry \"" + h + "\" is neither property nor Record.property,"
            + " e.g. <hiddenField>User.email</hiddenField>.");
      }
    }
    return out;
  }
}
