package io.worldflow.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

// tag::spring-app[]
/**
 * A Spring Boot application with Worldflow: the starter builds {@code Worldflow} from {@code application.properties},
 * registers {@link OrderWorkflow} (a bean), runs the worker while the application runs, and adds a health indicator,
 * metrics and the signal endpoint.
 */
@SpringBootApplication
public class OrdersApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }
}
// end::spring-app[]
