package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.RequestContext;
import java.util.Objects;
import java.util.function.Function;

/**
 * A typed {@code @Context} provider as a bean: the starter hands every bean of this type to
 * {@code FusionServer.Builder.context(type(), this::provide)}.
 *
 * <pre>{@code
 * @Bean
 * ContextProvider<Member> member(MemberDirectory members) {
 *   return ContextProvider.of(Member.class, request -> members.byHeader(request.header("x-member")));
 * }
 * }</pre>
 *
 * <p>The type is declared, not read from generics: a lambda bean keeps no type arguments at run
 * time. One provider per type; a second one fails startup naming the type.
 *
 * @param <T> the context type {@code @Context} parameters declare
 */
public interface ContextProvider<T> {
  /** The context type this provider supplies. */
  Class<T> type();

  /** The value for one call, computed lazily after validation, at most once per call. */
  T provide(RequestContext request);

  /** A provider of {@code type} computed by {@code provider}. */
  static <T> ContextProvider<T> of(Class<T> type, Function<RequestContext, ? extends T> provider) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(provider, "provider");
    return new ContextProvider<>() {
      @Override
      public Class<T> type() {
        return type;
      }

      @Override
      public T provide(RequestContext request) {
        return provider.apply(request);
      }

      @Override
      public String toString() {
        return "ContextProvider[" + type.getName() + "]";
      }
    };
  }
}
