package dev.redsim.queue.jq.client;

/** The master refused a request (4xx/5xx), with its error message. */
public final class JqClientException extends RuntimeException {
    public JqClientException(String message) {
        super(message);
    }
}
