# A define in the manner of boxen's `boxen::osx_defaults`, which Mac fleets use to manage
# preferences with Puppet, written for this test (Debian packages no such module). Like
# boxen's, it runs /usr/bin/defaults by that path and decides whether a value is already
# set by parsing the text of `defaults read` and `defaults read-type` with awk, so that
# text is an interface: a value on one line, and "Type is TYPE".
define osx_defaults (
  String $domain,
  String $key,
  Optional[Variant[String, Numeric, Boolean]] $value = undef,
  Optional[Enum['string', 'int', 'float', 'bool']] $type = undef,
  Enum['present', 'absent'] $ensure = 'present',
  Boolean $current_host = false,
) {
  $defaults = $current_host ? {
    true  => ['/usr/bin/defaults', '-currentHost'],
    false => ['/usr/bin/defaults'],
  }
  if $ensure == 'present' {
    $flag = $type ? { undef => 'string', default => $type }
    # `defaults read` prints a boolean as 1 or 0, and read-type names the types in full.
    $shown = $flag ? {
      'bool'  => $value ? { true => '1', 'true' => '1', 'yes' => '1', default => '0' },
      default => String($value),
    }
    $type_name = $flag ? {
      'bool'  => 'boolean',
      'int'   => 'integer',
      default => $flag,
    }
    $read = shellquote($defaults, 'read', $domain, $key)
    $read_type = shellquote($defaults, 'read-type', $domain, $key)
    $same_value = "${read} | awk -v want=${shellquote($shown)} '{ exit \$0 != want }'"
    $same_type = "${read_type} | awk '/^Type is / { exit \$3 != \"${type_name}\" } { exit 1 }'"
    exec { "defaults write ${domain} ${key}":
      command  => shellquote($defaults, 'write', $domain, $key, "-${flag}", String($value)),
      unless   => "${read} >/dev/null && ${same_value} && ${same_type}",
      provider => shell,
    }
  } else {
    exec { "defaults delete ${domain} ${key}":
      command  => shellquote($defaults, 'delete', $domain, $key),
      onlyif   => "${shellquote($defaults, 'read', $domain)} | grep -q -- ${shellquote($key)}",
      provider => shell,
    }
  }
}
