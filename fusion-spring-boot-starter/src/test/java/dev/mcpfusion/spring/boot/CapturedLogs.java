package dev.mcpfusion.spring.boot;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Every log event of the running application while open, as logback's events rather than console
 * text: a {@link ListAppender} on the root logger and on each logger that does not pass its events
 * up, so whatever appenders, pattern or stream Boot configured, no event escapes it (Tomcat's
 * java.util.logging reaches it through Boot's bridge). The given loggers log at DEBUG meanwhile, so
 * an echo at DEBUG is seen too.
 */
public final class CapturedLogs implements AutoCloseable {
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final List<Logger> attached = new ArrayList<>();
  private final Map<Logger, Level> levels = new LinkedHashMap<>();

  private CapturedLogs(String... debugLoggers) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    appender.setContext(context);
    appender.start();
    for (String name : debugLoggers) {
      Logger logger = context.getLogger(name);
      levels.put(logger, logger.getLevel());
      logger.setLevel(Level.DEBUG);
    }
    for (Logger logger : context.getLoggerList()) {
      if (logger.getName().equals(Logger.ROOT_LOGGER_NAME) || !logger.isAdditive()) {
        logger.addAppender(appender);
        attached.add(logger);
      }
    }
  }

  /** Starts capturing, with {@code debugLoggers} at DEBUG until {@link #close()}. */
  public static CapturedLogs start(String... debugLoggers) {
    return new CapturedLogs(debugLoggers);
  }

  /**
   * The events so far, each with its level, logger, message, arguments, MDC, key-value pairs and
   * any throwable's whole trace (messages and causes).
   */
  public List<String> events() {
    synchronized (appender) {
      return appender.list.stream().map(CapturedLogs::render).collect(Collectors.toList());
    }
  }

  /** The events so far at ERROR, rendered as {@link #events()}. */
  public List<String> errors() {
    synchronized (appender) {
      return appender.list.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.ERROR))
          .map(CapturedLogs::render).collect(Collectors.toList());
    }
  }

  private static String render(ILoggingEvent event) {
    String rendered = event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage()
        + " " + java.util.Arrays.toString(event.getArgumentArray()) + " " + event.getMDCPropertyMap()
        + " " + event.getKeyValuePairs();
    return event.getThrowableProxy() == null ? rendered
        : rendered + "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy());
  }

  @Override
  public void close() {
    for (Logger logger : attached) {
      logger.detachAppender(appender);
    }
    levels.forEach(Logger::setLevel);
    appender.stop();
  }
}
