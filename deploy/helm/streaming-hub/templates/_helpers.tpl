{{/* Names and labels. */}}
{{- define "hub.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "hub.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "hub.labels" -}}
{{ include "hub.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "hub.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Settings that are secrets: only ever from an existing Secret, never from `env`. */}}
{{- define "hub.secretSettings" -}}
HUB_DATABASE_URL HUB_RABBITMQ_URL HUB_JWT_HS256_SECRET HUB_ENCRYPTION_KEYS HUB_DASHBOARD_CURSOR_KEY
{{- end -}}

{{/* `env` maps (name: value) as env entries; refuses a secret setting's name and any *HEADERS variable
(OTLP headers carry credentials: only from opentelemetry.headersSecret). */}}
{{- define "hub.plainEnv" -}}
{{- $secret := splitList " " (include "hub.secretSettings" .root) -}}
{{- range $name, $value := .env }}
{{- if has $name $secret }}
{{- fail (printf "%s is a secret: give it through an existing Secret, not env" $name) }}
{{- end }}
{{- if contains "HEADERS" $name }}
{{- fail (printf "%s may carry credentials: give it through opentelemetry.headersSecret" $name) }}
{{- end }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* The settings every process reads: external services, secrets, log level, then `env`. */}}
{{- define "hub.commonEnv" -}}
{{- $v := .Values -}}
- name: HUB_DATABASE_URL
  valueFrom:
    secretKeyRef: {name: {{ required "postgres.existingSecret is required" $v.postgres.existingSecret }}, key: {{ $v.postgres.urlKey }}}
- name: HUB_KAFKA_BOOTSTRAP
  value: {{ required "kafka.bootstrap is required" $v.kafka.bootstrap | quote }}
- name: HUB_KAFKA_TOPIC_PREFIX
  value: {{ $v.kafka.topicPrefix | quote }}
- name: HUB_RABBITMQ_URL
  valueFrom:
    secretKeyRef: {name: {{ required "rabbitmq.existingSecret is required" $v.rabbitmq.existingSecret }}, key: {{ $v.rabbitmq.urlKey }}}
- name: HUB_JWT_HS256_SECRET
  valueFrom:
    secretKeyRef: {name: {{ required "secrets.existingSecret is required" $v.secrets.existingSecret }}, key: {{ $v.secrets.jwtKey }}}
- name: HUB_ENCRYPTION_KEYS
  valueFrom:
    secretKeyRef: {name: {{ $v.secrets.existingSecret }}, key: {{ $v.secrets.encryptionKeysKey }}}
{{- if $v.secrets.dashboardCursorKeyKey }}
- name: HUB_DASHBOARD_CURSOR_KEY
  valueFrom:
    secretKeyRef: {name: {{ $v.secrets.existingSecret }}, key: {{ $v.secrets.dashboardCursorKeyKey }}}
{{- end }}
- name: HUB_LOG_LEVEL
  value: {{ $v.logLevel | quote }}
- name: HUB_STARTUP_WAIT_SECONDS
  value: {{ $v.startupWaitSeconds | quote }}
{{- include "hub.otelEnv" $v.opentelemetry }}
{{- include "hub.plainEnv" (dict "root" . "env" $v.env) }}
{{- end -}}

{{/* The OTEL_* variables of `opentelemetry.env` as they are, and the OTLP headers from their Secret. */}}
{{- define "hub.otelEnv" -}}
{{- range $name, $value := .env }}
{{- if not (hasPrefix "OTEL_" $name) }}
{{- fail (printf "opentelemetry.env takes OTEL_* variables only, not %s" $name) }}
{{- end }}
{{- if contains "HEADERS" $name }}
{{- fail (printf "%s may carry credentials: give it through opentelemetry.headersSecret" $name) }}
{{- end }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- with .headersSecret }}
{{- if .name }}
- name: OTEL_EXPORTER_OTLP_HEADERS
  valueFrom:
    secretKeyRef: {name: {{ .name }}, key: {{ required "opentelemetry.headersSecret.key is required" .key }}}
{{- end }}
{{- end }}
{{- end -}}

{{/* httpGet probes on a named port: liveness at LIVE, readiness at READY. */}}
{{- define "hub.httpProbes" -}}
livenessProbe:
  httpGet: {path: {{ .live }}, port: {{ .port }}}
  initialDelaySeconds: 10
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet: {path: {{ .ready }}, port: {{ .port }}}
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 3
{{- end -}}

{{/*
One Deployment. Arguments (a dict): root, component, values (the process's block), args (the hub
command), env (a YAML list of the process's own settings), ports (a YAML list), probes (YAML).
*/}}
{{- define "hub.deployment" -}}
{{- $root := .root -}}
{{- $ctx := dict "root" $root "component" .component -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "hub.fullname" $root }}-{{ .component }}
  labels:
    {{- include "hub.labels" $ctx | nindent 4 }}
spec:
  {{- if not (dig "autoscaling" "enabled" false .values) }}
  replicas: {{ .values.replicas }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "hub.selectorLabels" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "hub.labels" $ctx | nindent 8 }}
      {{- with .metricsPort }}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ . | quote }}
        prometheus.io/path: /metrics
      {{- end }}
    spec:
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      # On SIGTERM a worker finishes and commits what it holds (workers/runtime.py).
      terminationGracePeriodSeconds: 60
      containers:
        - name: {{ .component }}
          image: {{ include "hub.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args: {{ toJson .args }}
          securityContext:
            {{- toYaml $root.Values.containerSecurityContext | nindent 12 }}
          env:
            {{- include "hub.commonEnv" $root | nindent 12 }}
            {{- with .env }}
            {{- . | nindent 12 }}
            {{- end }}
            {{- with .values.env }}
            {{- include "hub.plainEnv" (dict "root" $root "env" .) | trim | nindent 12 }}
            {{- end }}
          ports:
            {{- .ports | nindent 12 }}
          {{- .probes | nindent 10 }}
          resources:
            {{- required (printf "%s needs resources" .component) .values.resources | toYaml | nindent 12 }}
          volumeMounts:
            - {name: tmp, mountPath: /tmp}
      volumes:
        - {name: tmp, emptyDir: {}}
{{- end -}}
