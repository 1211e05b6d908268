package io.tfstream.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Turns the first Ctrl-C (SIGINT) or SIGTERM into a graceful stop instead of a JVM exit, so that
 * the command can finish the job with a savepoint and return its own exit code; a second signal
 * ends the process at once. Uses the JDK's {@code sun.misc.Signal} (module {@code jdk.unsupported})
 * through reflection; where it is missing, the stop runs as a shutdown hook instead (the exit code
 * is then the signal's).
 */
final class StopSignals {
    private StopSignals() {}

    /** Runs {@code stop} at the first INT or TERM signal; returns how it was installed. */
    static String onFirstSignal(Runnable stop) {
        try {
            install(stop);
            return "signal handler";
        } catch (ReflectiveOperationException | RuntimeException e) {
            Runtime.getRuntime().addShutdownHook(new Thread(stop, "tfstream-stop"));
            return "shutdown hook (" + e + ")";
        }
    }

    private static void install(Runnable stop) throws ReflectiveOperationException {
        Class<?> signalClass = Class.forName("sun.misc.Signal");
        Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
        Method number = signalClass.getMethod("getNumber");
        boolean[] stopping = new boolean[1];
        Object handler =
                Proxy.newProxyInstance(
                        StopSignals.class.getClassLoader(),
                        new Class<?>[] {handlerClass},
                        (proxy, method, args) -> {
                            if (!method.getName().equals("handle")) {
                                return method.getName().equals("toString")
                                        ? "tfstream stop handler"
                                        : method.getName().equals("hashCode")
                                                ? System.identityHashCode(proxy)
                                                : proxy == args[0];
                            }
                            synchronized (stopping) {
                                if (stopping[0]) {
                                    Runtime.getRuntime().halt(128 + (int) number.invoke(args[0]));
                                }
                                stopping[0] = true;
                            }
                            Thread t = new Thread(stop, "tfstream-stop");
                            t.setDaemon(true);
                            t.start();
                            return null;
                        });
        Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                handle.invoke(
                        null, signalClass.getConstructor(String.class).newInstance(name), handler);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("cannot handle SIG" + name, e.getCause());
            }
        }
    }
}
