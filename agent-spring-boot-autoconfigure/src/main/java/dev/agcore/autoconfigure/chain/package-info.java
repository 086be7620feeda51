/**
 * Auto-configuration of chains: the {@link dev.agcore.chain.ChainRegistry} and the
 * {@link dev.agcore.chain.Chain @Chain} methods and {@link dev.agcore.chain.Runnable}
 * beans that join it.
 */
@NullMarked
package dev.agcore.autoconfigure.chain;

import org.jspecify.annotations.NullMarked;
