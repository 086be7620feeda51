/**
 * Annotations that declare workflows and their tasks on bean methods; the Spring Boot
 * auto-configuration registers and proxies them.
 */
@NullMarked
package dev.agcore.workflow.annotation;

import org.jspecify.annotations.NullMarked;
