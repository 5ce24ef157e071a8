/**
 * What the generic registry store ({@code io.listwatch.apiserver.rest.ResourceStore}) does
 * differently per built-in kind, as kube's {@code pkg/registry/<group>/<kind>/strategy.go}
 * with the kind's {@code SetDefaults_*} beside it: one file per kind, named for it.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.strategy.RestStrategy}: the hooks the store calls, and
 *       when ({@code defaults}, {@code validate}, {@code warnings}, {@code prepareForCreate},
 *       {@code prepareForUpdate}, {@code prepareForStatusUpdate}, {@code prepareForFinalize},
 *       {@code checkDelete}).</li>
 *   <li>{@link io.listwatch.apiserver.strategy.BuiltinStrategies}: the lookup from a resource to
 *       its strategy (a do-nothing one for kinds without rules).</li>
 *   <li>The kinds, package-private: {@code NamespaceStrategy}, {@code PodStrategy},
 *       {@code ServiceStrategy}, {@code SecretStrategy}, {@code PersistentVolumeStrategy},
 *       {@code PersistentVolumeClaimStrategy}, {@code ConfigMapStrategy}, {@code NodeStrategy},
 *       {@code ServiceAccountStrategy}, {@code LimitRangeStrategy}, {@code ResourceQuotaStrategy},
 *       {@code EventStrategy} (core, and events.k8s.io's Events); {@code DeploymentStrategy},
 *       {@code ReplicaSetStrategy}, {@code StatefulSetStrategy}, {@code DaemonSetStrategy}
 *       {@code ControllerRevisionStrategy} (apps); {@code JobStrategy}, {@code CronJobStrategy}
 *       (batch); {@code EndpointsStrategy}, {@code EndpointSliceStrategy}; {@code IngressStrategy},
 *       {@code NetworkPolicyStrategy} (networking); {@code PodDisruptionBudgetStrategy} (policy);
 *       {@code RoleStrategy}, {@code ClusterRoleStrategy}, {@code RoleBindingStrategy},
 *       {@code ClusterRoleBindingStrategy} (rbac); {@code PriorityClassStrategy} (scheduling);
 *       {@code LeaseStrategy} (coordination); {@code StorageClassStrategy}, {@code CSIDriverStrategy},
 *       {@code CSINodeStrategy}, {@code CSIStorageCapacityStrategy},
 *       {@code VolumeAttachmentStrategy} (storage; {@code CSIDriverNames} the driver-name rule they share);
 *       {@code CustomResourceDefinitionStrategy}; {@code PriorityLevelConfigurationStrategy},
 *       {@code FlowSchemaStrategy} (flowcontrol, with {@code FlowcontrolStatusValidation} and
 *       {@code MandatoryFlowcontrolConfiguration}, kube's mandatory exempt and catch-all objects);
 *       {@code MutatingWebhookConfigurationStrategy}, {@code ValidatingWebhookConfigurationStrategy}
 *       (admissionregistration; {@code WebhookConfigurationStrategy} their shared defaults and
 *       generation, {@code WebhookConfigurationValidation} with {@code RuleWithOperationsValidation},
 *       {@code WebhookClientConfigRules} and {@code MatchConditionValidation}).</li>
 *   <li>Pod validation, kube's {@code ValidatePodSpec} and {@code ValidatePodUpdate} by part:
 *       {@code PodSpecValidation} (the entry, shared by pods and templates), the containers'
 *       ({@code Container*Validation}), {@code VolumeValidation}, {@code ProbeValidation},
 *       {@code ResourceRequirementsValidation}, {@code SecurityContextValidation} (with
 *       {@code WindowsSecurityContextValidation}),
 *       {@code AffinityValidation}, {@code TolerationValidation}, {@code PodOsValidation} (what
 *       a linux or windows pod may not set), {@code PodUpdateValidation};
 *       {@code PodWarnings} (kube's warnings about pods and templates).</li>
 *   <li>Other kinds' shared rules: {@code WorkloadValidation}, {@code JobValidation} (with
 *       {@code PodFailurePolicyValidation}, {@code SuccessPolicyValidation},
 *       {@code JobStatusValidation}, {@code JobIndexes}),
 *       {@code CronSchedule} (robfig/cron's syntax), {@code ServiceValidation},
 *       {@code LoadBalancerStatusValidation}, {@code DaemonSetTemplateGeneration},
 *       {@code LabelSelectorValidation}, {@code Ports}, {@code NumericFields}.</li>
 *   <li>Shared helpers: {@code PodSpecDefaults} (pod specs of pods and of every workload's
 *       template), {@link io.listwatch.apiserver.strategy.WorkloadDefaults} (values the apps
 *       workloads share), {@code Fields} (kube's "absent", defaulting a field, keeping a stored
 *       one); for validation {@code DataMaps} (ConfigMap and Secret keys, size, immutability),
 *       {@code Quantities} (resource names and quantities), {@code Volumes} (what PVs and PVCs
 *       share), {@code Cidr}, {@code GoLiteral} (Go's {@code %#v} of a bad value) and
 *       {@code StatusValidation} (a 422 from a {@code /status} or {@code /finalize} hook).</li>
 * </ul>
 *
 * <p>Custom resources have their own strategy ({@code rest.WriteStrategy}, by their schema).
 * This package depends on {@code registry} and {@code io.listwatch.api}, not on {@code rest}.
 */
package io.listwatch.apiserver.strategy;
