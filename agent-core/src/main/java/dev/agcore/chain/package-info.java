/**
 * Chains: {@link dev.agcore.chain.Runnable} steps composed with
 * {@link dev.agcore.chain.Runnable#pipe pipe}, the seeds' {@code #[chain]}; their
 * factories in {@link dev.agcore.chain.Chains}, and the
 * {@link dev.agcore.chain.ChainRegistry registry} of named chains that
 * {@link dev.agcore.chain.Chain @Chain} methods join.
 */
@NullMarked
package dev.agcore.chain;

import org.jspecify.annotations.NullMarked;
