"""Floor 1, the base: what every layer shares and no rule decides.

Errors and refusals as data (:mod:`~perudo_rules.base.errors`,
:mod:`~perudo_rules.base.messages`), the languages (:mod:`~perudo_rules.base.i18n`), the
limits of what the package accepts (:mod:`~perudo_rules.base.limits`), safe YAML reading
(:mod:`~perudo_rules.base.yamlfile`), text sanitising, tables and file output, frozen
values, the version, and the actions with their notation (:mod:`~perudo_rules.base.actions`).
"""
