package io.tfstream.cli;

import picocli.CommandLine;

/** Reports the version recorded in the jar manifest, or "development" when run from classes. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = TfstreamCli.class.getPackage().getImplementationVersion();
        return new String[] {"tfstream " + (v == null ? "development" : v)};
    }
}
