package dev.mcpfusion.samples.boot;

import dev.mcpfusion.spring.boot.ContextProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A library connector as a Spring Boot application: {@link LibraryTools} is a bean, so the
 * starter registers it and serves it at {@code http://127.0.0.1:8080/mcp}.
 *
 * <pre>
 * java -jar samples/spring-boot/target/fusion-sample-spring-boot.jar
 * </pre>
 */
@SpringBootApplication
public class LibraryApplication {

  /** Starts the application. */
  public static void main(String[] args) {
    SpringApplication.run(LibraryApplication.class, args);
  }

  /** The calling member, from the {@code x-library-member} header ({@code @Context Member}). */
  @Bean
  ContextProvider<Member> member() {
    return ContextProvider.of(Member.class, request -> request.header("x-library-member")
        .filter(id -> !id.isBlank())
        .map(Member::new)
        .orElse(Member.ANONYMOUS));
  }
}
