# What a fleet's manifest asks of a machine, through the osx_defaults define.
# Tests/puppet/run.sh applies it twice: the first run changes everything, the second nothing.
osx_defaults { 'name':
  domain => 'com.example.puppet', key => 'name', value => 'Hello World', type => 'string',
}
osx_defaults { 'count':
  domain => 'com.example.puppet', key => 'count', value => 42, type => 'int',
}
osx_defaults { 'negative':
  domain => 'com.example.puppet', key => 'negative', value => -7, type => 'int',
}
osx_defaults { 'ratio':
  domain => 'com.example.puppet', key => 'ratio', value => 1.5, type => 'float',
}
osx_defaults { 'enabled':
  domain => 'com.example.puppet', key => 'enabled', value => true, type => 'bool',
}
osx_defaults { 'hidden':
  domain => 'com.example.puppet', key => 'hidden', value => 'no', type => 'bool',
}
# Seeded by run.sh as the string "7": the value reads the same, the type does not.
osx_defaults { 'retyped':
  domain => 'com.example.puppet', key => 'retyped', value => 7, type => 'int',
}
osx_defaults { 'obsolete':
  ensure => absent, domain => 'com.example.puppet', key => 'obsolete',
}
osx_defaults { 'locale':
  domain => 'NSGlobalDomain', key => 'AppleLocale', value => 'en_GB', type => 'string',
}
osx_defaults { 'screen':
  domain => 'com.example.puppet', key => 'screen', value => 2, type => 'int', current_host => true,
}
