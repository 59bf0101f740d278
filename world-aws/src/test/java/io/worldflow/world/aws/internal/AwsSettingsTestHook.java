package io.worldflow.world.aws.internal;

import io.worldflow.spi.WorldConfig;

import java.util.Map;

/** Lets tests parse settings with a chosen environment instead of the process's. */
public final class AwsSettingsTestHook {

    private AwsSettingsTestHook() {}

    public static AwsSettings from(WorldConfig config, Map<String, String> env) {
        return AwsSettings.from(config, env);
    }
}
