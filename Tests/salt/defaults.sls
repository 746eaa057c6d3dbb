# Salt's own macdefaults states, driving `settings` linked as `defaults`: a new domain
# with every value type the state casts to, and nested keys through name_separator.
# Tests/salt/run.sh applies this twice and checks the file with plistlib.

string:
  macdefaults.write:
    - domain: com.example.salt
    - value: Hello World
    - vtype: string

number-as-string:
  macdefaults.write:
    - domain: com.example.salt
    - value: 42
    - vtype: string

integer:
  macdefaults.write:
    - domain: com.example.salt
    - value: 42
    - vtype: int

negative:
  macdefaults.write:
    - domain: com.example.salt
    - value: -7
    - vtype: integer

float:
  macdefaults.write:
    - domain: com.example.salt
    - value: 1.5
    - vtype: float

boolean:
  macdefaults.write:
    - domain: com.example.salt
    - value: "yes"
    - vtype: bool

inferred-false:
  macdefaults.write:
    - domain: com.example.salt
    - value: false

date:
  macdefaults.write:
    - domain: com.example.salt
    - value: "2024-06-23T09:33:44Z"
    - vtype: date

data:
  macdefaults.write:
    - domain: com.example.salt
    - value: "bytes \u00e9"
    - vtype: data

array:
  macdefaults.write:
    - domain: com.example.salt
    - value: [en, fr CA, 3]
    - vtype: array

dict:
  macdefaults.write:
    - domain: com.example.salt
    - value:
        Style: icnv
        Size: 64
        Nested:
          Leaf: leaf
          List: [a, b]
    - vtype: dict

# An application's domain (run.sh seeds it as the application would), changed in place:
# appended to, merged into, nested keys replaced and deleted.
append to Recent:
  macdefaults.write:
    - name: Recent
    - domain: com.example.app
    - value: [c]
    - vtype: array-add

merge into View:
  macdefaults.write:
    - name: View
    - domain: com.example.app
    - value:
        Added: true
    - vtype: dict-add

View.Nested.Leaf:
  macdefaults.write:
    - domain: com.example.app
    - value: new
    - name_separator: "."

View.Nested.List.1:
  macdefaults.write:
    - domain: com.example.app
    - value: B
    - name_separator: "."

View.Size:
  macdefaults.absent:
    - domain: com.example.app
    - name_separator: "."

global:
  macdefaults.write:
    - name: AppleLocale
    - domain: NSGlobalDomain
    - value: en_GB
