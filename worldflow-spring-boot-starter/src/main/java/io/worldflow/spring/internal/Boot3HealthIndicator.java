package io.worldflow.spring.internal;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * {@link WorldflowHealth} through Spring Boot 3's health API, which Boot 4 moved to another package. Compiled against
 * Boot 3.5's actuator; loaded only where that API is on the classpath.
 */
public final class Boot3HealthIndicator extends AbstractHealthIndicator {

    private final WorldflowHealth health;

    public Boot3HealthIndicator(WorldflowHealth health) {
        super("Worldflow health check failed");
        this.health = health;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        WorldflowHealth.Check check = health.check();
        (check.up() ? builder.up() : builder.down()).withDetails(check.details());
    }
}
