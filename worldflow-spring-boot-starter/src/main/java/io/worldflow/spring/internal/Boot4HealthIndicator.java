package io.worldflow.spring.internal;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** {@link WorldflowHealth} through Spring Boot 4's health API. */
public final class Boot4HealthIndicator extends AbstractHealthIndicator {

    private final WorldflowHealth health;

    public Boot4HealthIndicator(WorldflowHealth health) {
        super("Worldflow health check failed");
        this.health = health;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        WorldflowHealth.Check check = health.check();
        (check.up() ? builder.up() : builder.down()).withDetails(check.details());
    }
}
