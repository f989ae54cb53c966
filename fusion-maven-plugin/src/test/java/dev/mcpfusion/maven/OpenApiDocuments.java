package dev.mcpfusion.maven;

import java.util.List;

/** The two published documents the generator is held to, and the configuration each is generated with. */
final class OpenApiDocuments {
  /** Swagger Petstore, OpenAPI 3.0 (swagger-api/swagger-petstore): 19 operations, 6 schemas. */
  static final String PETSTORE = "petstore3.yaml";
  /** The USPTO Data Set API (OAI/OpenAPI-Specification examples): 3 operations, an inline object. */
  static final String USPTO = "uspto.yaml";

  private OpenApiDocuments() {}

  static OpenApiConfig config(String document) {
    return switch (document) {
      // User.phone is hidden by configuration; User.password is hidden as secret-like on its own.
      case PETSTORE -> new OpenApiConfig("acme.petstore", "petstore", List.of("User.phone"), List.of());
      case USPTO -> new OpenApiConfig("gov.uspto.dsapi", "uspto", List.of(), List.of());
      default -> throw new IllegalArgumentException(document);
    };
  }

  static String routerClass(String document) {
    return config(document).routerClass();
  }
}
