package io.worldflow.world.postgres.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.function.BooleanSupplier;
import javax.net.SocketFactory;

/**
 * Sockets for the world's LISTEN connection, named to the PostgreSQL driver by its {@code socketFactory}
 * property. After the driver reads a notification it looks for more by reading with a timeout of 1 ms, and only
 * returns the notification when that read times out: every notice would arrive a millisecond or more late. On these
 * sockets such a look is answered from what the kernel has already received: a read with a 1 ms timeout and
 * nothing received fails at once with the timeout's exception, as it would have a millisecond later. Every other
 * read is the socket's own.
 *
 * <p>Public only because the driver instantiates it by name; not part of the world's interface.
 */
public final class ListenSocketFactory extends SocketFactory {

    /** The read timeout the driver uses to look for more messages without waiting for them. */
    static final int LOOK_TIMEOUT_MILLIS = 1;

    public ListenSocketFactory() {}

    @Override
    public Socket createSocket() {
        return new ListenSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    private static Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        Socket s = new ListenSocket();
        try {
            if (local != null) {
                s.bind(local);
            }
            s.connect(remote);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** A socket that remembers its read timeout, for its input stream to look at. */
    static final class ListenSocket extends Socket {

        private volatile int readTimeout;

        @Override
        public void setSoTimeout(int timeout) throws SocketException {
            super.setSoTimeout(timeout);
            readTimeout = timeout;
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return new LookingInput(super.getInputStream(), () -> readTimeout == LOOK_TIMEOUT_MILLIS);
        }
    }

    /** A socket's input whose reads, while {@code looking}, fail at once unless something was received. */
    static final class LookingInput extends FilterInputStream {

        private final BooleanSupplier looking;

        LookingInput(InputStream in, BooleanSupplier looking) {
            super(in);
            this.looking = looking;
        }

        @Override
        public int read() throws IOException {
            nothingToWaitFor();
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            nothingToWaitFor();
            return in.read(b, off, len);
        }

        private void nothingToWaitFor() throws IOException {
            if (looking.getAsBoolean() && in.available() == 0) {
                throw new SocketTimeoutException("nothing received yet");
            }
        }
    }
}
