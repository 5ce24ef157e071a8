/**
 * What {@code kubectl get} prints, computed by the server (kube's {@code pkg/printers}): a
 * {@link io.listwatch.apiserver.printers.TableConvertor} per kind turns one object into the cells
 * of one Table row under that kind's column definitions.
 *
 * <p>Map: {@link io.listwatch.apiserver.printers.TableConvertor} (the contract, and the default
 * NAME / Created At columns every other resource gets), one class per kind
 * ({@link io.listwatch.apiserver.printers.PodTableConvertor},
 * {@link io.listwatch.apiserver.printers.DeploymentTableConvertor}, ...),
 * {@link io.listwatch.apiserver.printers.HumanDuration} (the AGE strings),
 * {@link io.listwatch.apiserver.printers.Cells} (helpers shared by the convertors) and
 * {@code WorkloadColumns} (the layout the workload kinds share: AGE, then their pod
 * template's CONTAINERS, IMAGES and SELECTOR);
 * {@link io.listwatch.apiserver.printers.CustomResourceTableConvertor} prints custom resources
 * from their definition's printer columns, whose paths
 * {@link io.listwatch.apiserver.printers.JsonPath} evaluates. Which
 * convertor a resource uses is part of its
 * {@link io.listwatch.apiserver.registry.ResourceDefinition}. Assembling the Table document
 * (metadata, the row's object, the wire encoding) is the transport's job
 * ({@code io.listwatch.server.http}).
 */
package io.listwatch.apiserver.printers;
