package dev.mcpfusion.spring.boot.security;

/** The caller's tenant, from its token's {@code tenant} claim by a {@code ContextProvider} bean. */
public record Tenant(String id) {}
