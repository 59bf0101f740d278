/** The auto-configuration's parts; not for applications to use. */
package io.worldflow.spring.internal;
