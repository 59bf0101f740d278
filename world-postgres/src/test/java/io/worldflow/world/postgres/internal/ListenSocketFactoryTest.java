package io.worldflow.world.postgres.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class ListenSocketFactoryTest {

    private ServerSocket server;
    private Socket client;
    private Socket peer;

    @BeforeEach
    void connect() throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        client = new ListenSocketFactory().createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        peer = server.accept();
    }

    @AfterEach
    void close() throws IOException {
        client.close();
        peer.close();
        server.close();
    }

    @Test
    void aLookWithNothingReceivedTimesOutAndOneWithBytesReceivedReadsThem() throws Exception {
        InputStream in = client.getInputStream();
        client.setSoTimeout(ListenSocketFactory.LOOK_TIMEOUT_MILLIS);
        assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
        assertThatThrownBy(() -> in.read(new byte[8], 0, 8)).isInstanceOf(SocketTimeoutException.class);

        OutputStream out = peer.getOutputStream();
        out.write(new byte[] {'A', 'B'});
        out.flush();
        awaitAvailable(in, 2);

        assertThat(in.read()).isEqualTo('A');
        byte[] rest = new byte[8];
        assertThat(in.read(rest, 0, 8)).isEqualTo(1);
        assertThat(rest[0]).isEqualTo((byte) 'B');
        assertThatThrownBy(in::read).as("nothing left").isInstanceOf(SocketTimeoutException.class);
    }

    @Test
    void aReadWithoutTheLookTimeoutWaitsForWhatIsSentLater() throws Exception {
        InputStream in = client.getInputStream();
        client.setSoTimeout(ListenSocketFactory.LOOK_TIMEOUT_MILLIS);
        assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
        client.setSoTimeout(0);
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(200);
                peer.getOutputStream().write('N');
                peer.getOutputStream().flush();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(in.read())
                .as("a blocking read waits for the byte sent 200 ms later")
                .isEqualTo('N');
        sender.join();
    }

    @Test
    void aReadWithAnotherTimeoutTimesOutAsTheSocketDoes() throws Exception {
        InputStream in = client.getInputStream();
        client.setSoTimeout(50);
        long start = System.nanoTime();

        assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
        assertThat(System.nanoTime() - start).as("it waited for its timeout").isGreaterThanOrEqualTo(40_000_000L);
    }

    @Test
    void aLookWithNothingReceivedNeverWaitsOnTheSocket() {
        InputStream received = new InputStream() {
            @Override
            public int read() {
                throw new AssertionError("the look waited on the socket");
            }

            @Override
            public int read(byte[] b, int off, int len) {
                throw new AssertionError("the look waited on the socket");
            }

            @Override
            public int available() {
                return 0;
            }
        };
        InputStream in = new ListenSocketFactory.LookingInput(received, () -> true);

        assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
        assertThatThrownBy(() -> in.read(new byte[4], 0, 4)).isInstanceOf(SocketTimeoutException.class);
    }

    private static void awaitAvailable(InputStream in, int n) throws Exception {
        long end = System.nanoTime() + 5_000_000_000L;
        while (in.available() < n && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        assertThat(in.available()).isEqualTo(n);
    }
}
