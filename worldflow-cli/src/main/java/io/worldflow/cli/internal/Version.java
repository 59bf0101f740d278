package io.worldflow.cli.internal;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** {@code --version}: the version the build wrote into {@code version.properties}. */
final class Version implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/io/worldflow/cli/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {
            "worldflow " + p.getProperty("version", "(unknown version)"),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
