{{- define "crows-nest.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "crows-nest.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "crows-nest.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "crows-nest.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "crows-nest.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "crows-nest.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels for one component: web or collector. */}}
{{- define "crows-nest.selectorLabels" -}}
app.kubernetes.io/name: {{ include "crows-nest.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "crows-nest.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (printf "%s-collector" (include "crows-nest.fullname" .)) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "crows-nest.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* Settings both processes read. Credentials only through secretKeyRef, never as literal values. */}}
{{- define "crows-nest.commonEnv" -}}
- name: NODE_ENV
  value: production
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret is required" .Values.database.existingSecret }}
      key: {{ .Values.database.key }}
- name: ACTIONS_ENABLED
  value: {{ .Values.actions.enabled | quote }}
{{- end }}

{{/*
NODE_OPTIONS capping the V8 heap below the container's memory limit, so a busy process collects garbage
instead of growing until the kernel kills it. Called with (dict "c" .Values.web) or the collector's values:
heapMaxMiB when set, else heapPercentOfLimit % of resources.limits.memory (Ki/Mi/Gi/Ti, k/M/G/T or bytes).
Nothing without a limit (the image's default NODE_OPTIONS then applies).
*/}}
{{- define "crows-nest.heapEnv" -}}
{{- $c := .c -}}
{{- $mib := 0 -}}
{{- if $c.heapMaxMiB -}}
{{- $mib = int $c.heapMaxMiB -}}
{{- else if and $c.resources $c.resources.limits $c.resources.limits.memory -}}
{{- $limit := toString $c.resources.limits.memory -}}
{{- $number := regexFind "^[0-9]+(\\.[0-9]+)?" $limit -}}
{{- $suffix := trimPrefix $number $limit -}}
{{- $factors := dict "" 1 "k" 1000 "K" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 -}}
{{- if or (not $number) (not (hasKey $factors $suffix)) -}}
{{- fail (printf "cannot read the memory limit %q (use e.g. 768Mi or 1Gi), or set heapMaxMiB" $limit) -}}
{{- end -}}
{{- $bytes := mulf (float64 $number) (float64 (get $factors $suffix)) -}}
{{- $mib = int (floor (divf (mulf $bytes (float64 $c.heapPercentOfLimit)) (mulf 100.0 1048576.0))) -}}
{{- end -}}
{{- if gt $mib 0 }}
- name: NODE_OPTIONS
  value: {{ printf "--max-old-space-size=%d" $mib | quote }}
{{- end -}}
{{- end }}
