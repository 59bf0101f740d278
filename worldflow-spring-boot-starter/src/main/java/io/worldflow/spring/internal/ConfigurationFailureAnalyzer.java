package io.worldflow.spring.internal;

import io.worldflow.ConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A start that fails on Worldflow's configuration is reported as Spring Boot reports its own bad settings: the
 * "APPLICATION FAILED TO START" box with Worldflow's message (which names the key and the value) as its description,
 * instead of a stack of bean creation failures with that message six causes down.
 */
public final class ConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConfigurationException cause) {
        return new FailureAnalysis(
                "Worldflow's configuration is wrong: " + cause.getMessage(),
                "Correct the worldflow.* setting it names, in application.properties or YAML, a --worldflow.…"
                        + " argument, a -Dworldflow.… system property or a WORLDFLOW_… environment variable. The keys"
                        + " and their values are in the Configuration section of Worldflow's README.",
                cause);
    }
}
