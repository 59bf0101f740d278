package io.worldflow.spring.internal;

import io.worldflow.Workflow;
import io.worldflow.annotation.WorkflowMethod;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the context's workflows: beans that are a {@link Workflow}, and beans whose class has a
 * {@link WorkflowMethod}. Types are read from the bean definitions, so only those beans are created here: a controller
 * that injects {@code Worldflow} is not created while {@code Worldflow} is being built.
 */
public final class WorkflowBeans {

    private WorkflowBeans() {}

    public static List<Object> find(ListableBeanFactory beans) {
        List<Object> found = new ArrayList<>();
        for (String name : beans.getBeanNamesForType(Object.class, false, false)) {
            Class<?> type = beans.getType(name, false);
            if (type == null) {
                continue;
            }
            if (Workflow.class.isAssignableFrom(type)) {
                found.add(beans.getBean(name));
            } else if (hasWorkflowMethod(ClassUtils.getUserClass(type))) {
                found.add(target(beans.getBean(name)));
            }
        }
        return found;
    }

    static boolean hasWorkflowMethod(Class<?> type) {
        for (Method m : type.getMethods()) {
            if (m.isAnnotationPresent(WorkflowMethod.class)) {
                return true;
            }
        }
        return false;
    }

    /** The object behind a Spring AOP proxy (a transactional bean, say): the proxy's methods lose the annotations. */
    private static Object target(Object bean) {
        Object target = AopProxyUtils.getSingletonTarget(bean);
        return target != null ? target : bean;
    }
}
